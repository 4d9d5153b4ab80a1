export { assertActivityWeekOpen, lockApprovedWeek, unlockWeek } from './service.js';
export { startTimesheetSchedule } from './schedule.js';
export { runTimesheetSchedule, scheduledWorkspaces } from './service.js';
