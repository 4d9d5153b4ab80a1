import { signal } from '@preact/signals';
import { api, type Schemas } from '../api/client.js';

type Report = Schemas['Report'];

/** The person's saved reports, pinned ones first, then by name. */
export const savedReports = signal<Report[]>([]);

export async function loadSavedReports(): Promise<void> {
  const answer = await api.GET('/reports');
  if (answer.data) savedReports.value = Object.values(answer.data).sort((a, b) => Number(!!b.pinned) - Number(!!a.pinned) || a.name.localeCompare(b.name));
}

export async function saveReport(body: Schemas['CreateReportBody']) {
  const answer = await api.POST('/reports', { body });
  if (answer.data) await loadSavedReports();
  return answer;
}

export async function pinReport(report: Report, pinned: boolean) {
  const answer = await api.PUT('/reports/{reportId}', { params: { path: { reportId: report.id } }, body: { pinned } });
  await loadSavedReports();
  return answer;
}

export async function deleteReport(report: Report) {
  const answer = await api.DELETE('/reports/{reportId}', { params: { path: { reportId: report.id } } });
  await loadSavedReports();
  return answer;
}
