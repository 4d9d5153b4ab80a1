import { useSignal, useSignalEffect } from '@preact/signals';
import { problemMessage, type Activity, type Problem } from '../../api/client.js';
import { loadThisWeekEntries, runningTimer, sameWorkAs, startTimer, thisWeekEntries, thisWeekEntriesLoaded } from '../../data/activities.js';
import { changes } from '../../data/changes.js';
import { loadClients } from '../../data/clients.js';
import { loadRecentEntries, loadTeamWeek, loadTrackingNow, recentEntries, teamWeek, teamWeekProblem, trackingNow, type Hours } from '../../data/dashboard.js';
import { membersById } from '../../data/members.js';
import { formats } from '../../data/preferences.js';
import { loadRequests, requests } from '../../data/requests.js';
import { me } from '../../data/session.js';
import { loadTags } from '../../data/tags.js';
import { ensureTasks } from '../../data/tasks.js';
import { directory, loadDirectory, userLabel } from '../../data/users.js';
import { followLink } from '../../lib/router.js';
import { addDays, dayKey, dayOf, mondayOf } from '../../lib/time.js';
import '../manage/manage.css';
import { describeRequest, KIND_LABELS } from '../requests/describe.js';
import './dashboard.css';
import { workOf } from '../../data/work.js';

/*
 * The dashboard (docs/web-app.md, "Dashboard"): for everyone their week and their recent entries to
 * continue; for administrators, where they land after signing in, this week's hours by person and
 * by project, who is tracking now and the pending requests.
 */

const length = (activity: Activity) => Date.parse(activity.endedAt ?? new Date().toISOString()) - Date.parse(activity.startedAt);

function HoursTable({ id, caption, head, lines, total }: { id: string; caption: string; head: string; lines: Hours[]; total: number }) {
  return (
    <div class="table-wrap">
      <table class="table" id={id}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{head}</th>
            <th scope="col" class="num">
              Hours
            </th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line) => (
            <tr key={line.key ?? 'none'}>
              <th scope="row">{line.label}</th>
              <td class="num">{formats.value.duration(line.seconds * 1000)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total</th>
            <td class="num">{formats.value.duration(total * 1000)}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

/** This week's hours of the team, by person and by project (one report run, in the organization's zone). */
function TeamWeekCard() {
  const week = teamWeek.value;
  const problem = teamWeekProblem.value;
  let range = '';
  if (week) {
    const monday = mondayOf(dayOf(Date.now(), week.timeZone));
    range = formats.value.dayRange(monday, addDays(monday, 6));
  }
  return (
    <section class="card" aria-labelledby="team-week">
      <h2 id="team-week">Team this week{range && <span class="muted"> {range}</span>}</h2>
      {problem && <p role="alert" class="error">{problemMessage(problem)}</p>}
      {!week && !problem && <p class="loading">Loading…</p>}
      {week && week.byPerson.length === 0 && <p class="muted">Nobody has recorded time this week yet.</p>}
      {week && week.byPerson.length > 0 && (
        <div class="dashboard-tables">
          <HoursTable id="hours-by-person" caption="Hours by person" head="Person" lines={week.byPerson} total={week.total} />
          <HoursTable id="hours-by-project" caption="Hours by project" head="Project" lines={week.byProject} total={week.total} />
        </div>
      )}
    </section>
  );
}

function TrackingNowCard() {
  const running = trackingNow.value;
  void directory.value;
  return (
    <section class="card" aria-labelledby="tracking-now">
      <h2 id="tracking-now">Tracking now</h2>
      {running === null && <p class="loading">Loading…</p>}
      {running?.length === 0 && <p class="muted">Nobody is tracking time right now.</p>}
      {running && running.length > 0 && (
        <ul class="requests" aria-labelledby="tracking-now">
          {running.map((activity) => (
            <li key={activity.id}>
              <p>
                <strong>{userLabel(activity.userId)}</strong> {activity.name} <span class="muted">{workOf(activity)}</span>
              </p>
              <span class="muted">
                since {formats.value.time(activity.startedAt)} ({formats.value.duration(length(activity))})
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function PendingRequestsCard() {
  const pending = requests.value === null ? null : Object.values(requests.value).filter((request) => request.status === 'PENDING');
  void directory.value;
  return (
    <section class="card" aria-labelledby="pending-requests">
      <h2 id="pending-requests">Pending requests</h2>
      {pending === null && <p class="loading">Loading…</p>}
      {pending?.length === 0 && <p class="muted">No request is waiting for an answer.</p>}
      {pending && pending.length > 0 && (
        <>
          <ul class="requests" aria-labelledby="pending-requests">
            {pending.map((request) => (
              <li key={request.id}>
                <p>
                  <span class="badge">{KIND_LABELS[request.type]}</span> {describeRequest(request, membersById.value)}
                </p>
              </li>
            ))}
          </ul>
          <a href="/requests" onClick={followLink}>
            Answer them on the Requests page
          </a>
        </>
      )}
    </section>
  );
}

/** The person's own week: the time of each day with any, and the total (days of their own zone, as on Track). */
function MyWeekCard() {
  const tz = formats.value.timeZone;
  const days = new Map<string, { day: Date; total: number }>();
  for (const activity of thisWeekEntries.value) {
    if (activity.endedAt === null) continue;
    const day = dayOf(Date.parse(activity.startedAt), tz);
    const group = days.get(dayKey(day)) ?? { day, total: 0 };
    group.total += length(activity);
    days.set(dayKey(day), group);
  }
  const total = [...days.values()].reduce((sum, group) => sum + group.total, 0);
  const running = runningTimer.value;
  return (
    <section class="card" aria-labelledby="my-week">
      <h2 id="my-week" class="week-total">
        My week <span>{formats.value.duration(total)}</span>
      </h2>
      {running && (
        <p>
          Tracking “{running.name}” since {formats.value.time(running.startedAt)}.{' '}
          <a href="/" onClick={followLink}>
            Open Track
          </a>
        </p>
      )}
      {thisWeekEntriesLoaded.value && days.size === 0 && <p class="muted">No time recorded this week yet.</p>}
      {days.size > 0 && (
        <div class="table-wrap">
          <table class="table" id="my-week-days">
            <caption class="visually-hidden">My time by day</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col" class="num">
                  Hours
                </th>
              </tr>
            </thead>
            <tbody>
              {[...days.values()]
                .sort((a, b) => a.day.getTime() - b.day.getTime())
                .map((group) => (
                  <tr key={dayKey(group.day)}>
                    <th scope="row">{formats.value.day(group.day)}</th>
                    <td class="num">{formats.value.duration(group.total)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** A recent entry and "Continue": a timer with the same work, as Track's Continue starts (docs/web-app.md, "Track"). */
function RecentEntry({ activity }: { activity: Activity }) {
  const problem = useSignal<Problem | undefined>(undefined);
  const busy = useSignal(false);
  const continueIt = async () => {
    busy.value = true;
    problem.value = await startTimer(sameWorkAs(activity));
    busy.value = false;
  };
  return (
    <li>
      <p>
        <strong>{activity.name}</strong> <span class="muted">{workOf(activity)}</span>
        <br />
        <span class="muted">
          {formats.value.day(dayOf(Date.parse(activity.startedAt), formats.value.timeZone))} · {formats.value.duration(length(activity))}
        </span>
      </p>
      <button type="button" onClick={() => void continueIt()} disabled={busy.value} aria-label={`Continue “${activity.name}”`}>
        Continue
      </button>
      {problem.value && (
        <p role="alert" class="error">
          {problemMessage(problem.value)}
        </p>
      )}
    </li>
  );
}

function RecentEntriesCard() {
  const recent = recentEntries.value;
  return (
    <section class="card" aria-labelledby="recent-entries">
      <h2 id="recent-entries">Recent entries to continue</h2>
      {recent === null && <p class="loading">Loading…</p>}
      {recent?.length === 0 && <p class="muted">Nothing recorded in the last two weeks.</p>}
      {recent && recent.length > 0 && (
        <ul class="requests" aria-labelledby="recent-entries">
          {recent.map((activity) => (
            <RecentEntry key={activity.id} activity={activity} />
          ))}
        </ul>
      )}
    </section>
  );
}

export function DashboardPage() {
  const admin = me.value?.role === 'Administrator';
  useSignalEffect(() => {
    void changes.value;
    // The activity listings one after the other: a token runs at most two at once (docs/rules.md §6
    // Listing activities), and the page's own must leave room for the person's other pages.
    void (async () => {
      await loadThisWeekEntries();
      await loadRecentEntries();
      if (admin) await loadTrackingNow();
    })();
    void loadClients();
    void loadTags();
    if (!admin) return;
    void loadTeamWeek();
    void loadRequests();
    void loadDirectory();
  });
  // The tasks of the projects shown, for their names and for what Continue leaves out.
  useSignalEffect(() => ensureTasks(new Set([...(recentEntries.value ?? []), ...(trackingNow.value ?? [])].map((activity) => activity.projectId))));
  return (
    <>
      <h1>Dashboard</h1>
      <div class="dashboard">
        {admin && <TeamWeekCard />}
        {admin && <TrackingNowCard />}
        {admin && <PendingRequestsCard />}
        <MyWeekCard />
        <RecentEntriesCard />
      </div>
    </>
  );
}
