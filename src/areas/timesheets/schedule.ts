import type { FastifyInstance } from 'fastify';
import { runTimesheetSchedule, scheduledWorkspaces } from './service.js';

/**
 * The server's timesheet schedule (docs/rules.md §6 Timesheet schedule): every `scheduleIntervalMs`
 * it runs the automatic lock and the reminder of each workspace that has automatic locking enabled,
 * as PUT /timesheets/auto-lock and POST /timesheets/reminder would, once each per due moment however
 * many instances run it. Started by the server only (tests and the CLI build apps that run no
 * schedule); stopping waits for a pass in progress. A workspace whose run fails is logged and tried
 * again at the next pass; the others go on.
 */
export function startTimesheetSchedule(app: FastifyInstance): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  const pass = async () => {
    for (const workspace of await scheduledWorkspaces(app.db)) {
      try {
        const { locked, reminded } = await runTimesheetSchedule(app.db, app.config, workspace);
        if (locked) app.log.info({ organizationId: workspace.organizationId, locked }, 'timesheet auto-lock recorded');
        if (reminded) app.log.info({ organizationId: workspace.organizationId, week: reminded }, 'timesheet reminders written');
      } catch (error) {
        app.log.error({ err: error, organizationId: workspace.organizationId }, 'timesheet schedule failed for a workspace');
      }
    }
  };
  const tick = () => {
    if (running) return;
    running = pass()
      .catch((error: unknown) => app.log.error({ err: error }, 'timesheet schedule pass failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, app.config.scheduleIntervalMs);
  timer.unref();
  tick();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
