export { assertActivityWeekOpen, unlockWeek } from './service.js';
