import { useSignal } from '@preact/signals';
import { fieldErrors, problemMessage, type Problem, type Schemas } from '../../api/client.js';
import { describedBy, Field } from '../../components/Field.js';
import { ProjectPicker } from '../../components/ProjectPicker.js';
import { TagField } from '../../components/TagField.js';
import { TaskPicker } from '../../components/TaskPicker.js';
import { DateField, TimeField } from '../../components/TimeField.js';
import { changeActivity, defaultBillable } from '../../data/activities.js';
import { formats } from '../../data/preferences.js';
import { addDays, dateInputValue, dayKey, dayOf, parseDateInput, parseTimeInput, timeInputValue, zonedInstant } from '../../lib/time.js';

type Entry = Schemas['DetailedReportEntry'];
type ChangeBody = Schemas['UpdateActivityBody'];

/** The fields the editor shows an error beside; a problem about any other is shown above its buttons. */
const PLACED = ['name', 'projectId', 'taskId', 'tagIds', 'startedAt', 'endedAt'];

/** What the editor holds: the entry's fields as typed, its times as a day, a start and an end of the person's zone. */
interface Draft {
  name: string;
  projectId: string | null;
  taskId: string | null;
  tagIds: string[];
  billable: boolean;
  day: string;
  start: string;
  end: string;
}

function draftOf(entry: Entry, tz: string): Draft {
  return {
    name: entry.name,
    projectId: entry.project?.id ?? null,
    taskId: entry.task?.id ?? null,
    tagIds: entry.tags.map((tag) => tag.id),
    billable: entry.billable,
    day: dateInputValue(dayOf(Date.parse(entry.startedAt), tz)),
    start: timeInputValue(Date.parse(entry.startedAt), tz),
    end: timeInputValue(Date.parse(entry.endedAt), tz),
  };
}

/** The change the draft makes to the entry: only the fields it changed (an end before the start is the next day's). */
function changeOf(entry: Entry, draft: Draft, tz: string): ChangeBody {
  const body: ChangeBody = {};
  if (draft.name !== entry.name) body.name = draft.name;
  if (draft.projectId !== (entry.project?.id ?? null)) body.projectId = draft.projectId;
  if (draft.taskId !== (entry.task?.id ?? null)) body.taskId = draft.taskId;
  if (draft.tagIds.join() !== entry.tags.map((tag) => tag.id).join()) body.tagIds = draft.tagIds;
  if (draft.billable !== entry.billable) body.billable = draft.billable;
  const day = parseDateInput(draft.day);
  const start = parseTimeInput(draft.start);
  const end = parseTimeInput(draft.end);
  if (day && start && end) {
    const startedAt = zonedInstant(day, start.hour, start.minute, tz);
    let endedAt = zonedInstant(day, end.hour, end.minute, tz);
    // An entry that ran past midnight goes on ending the next day; any other end before its start is the API's to refuse.
    const overnight = dayKey(dayOf(Date.parse(entry.endedAt), tz)) !== dayKey(dayOf(Date.parse(entry.startedAt), tz));
    if (endedAt < startedAt && overnight) endedAt = zonedInstant(addDays(day, 1), end.hour, end.minute, tz);
    const stored = draftOf(entry, tz);
    if (draft.day !== stored.day || draft.start !== stored.start) body.startedAt = startedAt.toISOString();
    if (draft.day !== stored.day || draft.start !== stored.start || draft.end !== stored.end) body.endedAt = endedAt.toISOString();
  }
  return body;
}

/**
 * An entry of a report's detailed entries, edited in place (docs/web-app.md, "Reports"): its
 * description, project, task, tags, billable and times, saved together. The API decides who may
 * change it; a refusal is shown in words and the entry stays as it was.
 */
export function EntryEditor({ entry, onSaved, onClose }: { entry: Entry; onSaved(): void; onClose(): void }) {
  const tz = formats.value.timeZone;
  const draft = useSignal<Draft>(draftOf(entry, tz));
  const problem = useSignal<Problem | undefined>(undefined);
  const saving = useSignal(false);
  const d = draft.value;
  const change = (patch: Partial<Draft>) => (draft.value = { ...draft.value, ...patch });
  const errors = fieldErrors(problem.value);
  const id = `report-entry-${entry.id}`;
  // The day an entry that runs past midnight ends on, so the end reads as the next day's.
  const overnight = dayKey(dayOf(Date.parse(entry.endedAt), tz)) !== dayKey(dayOf(Date.parse(entry.startedAt), tz));

  const save = async (event: Event) => {
    event.preventDefault();
    const body = changeOf(entry, draft.value, tz);
    if (Object.keys(body).length === 0) return onClose();
    saving.value = true;
    problem.value = await changeActivity({ id: entry.id, startedAt: entry.startedAt }, body);
    saving.value = false;
    if (!problem.value) onSaved();
  };

  return (
    <form class="entry-editor" onSubmit={save} aria-label={`Edit “${entry.name}”`}>
      <div class="inline">
        <Field id={`${id}-name`} label="Description" error={errors.name}>
          <input id={`${id}-name`} value={d.name} maxLength={255} required onInput={(e) => change({ name: e.currentTarget.value })} {...describedBy(`${id}-name`, errors.name)} />
        </Field>
        <ProjectPicker
          id={`${id}-project`}
          label="Project"
          projectId={d.projectId}
          error={errors.projectId}
          onChange={(projectId) => change({ projectId, taskId: null, billable: defaultBillable(projectId, null) })}
        />
        {d.projectId && (
          <TaskPicker
            id={`${id}-task`}
            label="Task"
            projectId={d.projectId}
            taskId={d.taskId}
            error={errors.taskId}
            onChange={(taskId) => change({ taskId, billable: defaultBillable(d.projectId, taskId) })}
          />
        )}
        <TagField id={`${id}-tags`} label="Tags" tagIds={d.tagIds} error={errors.tagIds} onChange={(tagIds) => change({ tagIds })} />
      </div>
      <div class="inline">
        <DateField id={`${id}-day`} label="Date" value={d.day} error={errors.startedAt} onChange={(day) => change({ day })} />
        <TimeField id={`${id}-start`} label="Start" value={d.start} onChange={(start) => change({ start })} />
        <TimeField id={`${id}-end`} label={overnight ? 'End (next day)' : 'End'} value={d.end} error={errors.endedAt} onChange={(end) => change({ end })} />
        <span class="check">
          <input id={`${id}-billable`} type="checkbox" checked={d.billable} onChange={(e) => change({ billable: e.currentTarget.checked })} />
          <label for={`${id}-billable`}>Billable</label>
        </span>
      </div>
      {problem.value && (!problem.value.errors || Object.keys(errors).some((field) => !PLACED.includes(field))) && (
        <p class="error" role="alert">
          {problemMessage(problem.value)} The entry was not changed.
        </p>
      )}
      <div class="row-actions">
        <button type="submit" class="primary" disabled={saving.value}>
          Save entry
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
