import { useSignal } from '@preact/signals';
import { api, problemMessage, type Problem } from '../../api/client.js';
import { fileNameOf, saveFile } from '../reports/download.js';

/** A problem the page met itself (no answer), shown as the API's are. */
const lostConnection: Problem = {
  type: 'about:blank',
  title: 'The archive could not be downloaded. Check the connection and try again.',
  detail: 'The archive could not be downloaded. Check the connection and try again.',
  status: 0,
  code: 'client',
};

/**
 * Settings → Export (administrators): every record of the workspace as one ZIP (GET /api/export),
 * fetched with the session and handed to the browser under the name the API's Content-Disposition
 * gives; Settings → Import of another workspace takes it back (source timetrack).
 */
export function Export() {
  const busy = useSignal(false);
  const status = useSignal('');
  const problem = useSignal<Problem | undefined>(undefined);

  const download = async () => {
    busy.value = true;
    problem.value = undefined;
    status.value = 'Preparing the archive…';
    try {
      const answer = await api.GET('/export', { parseAs: 'blob' });
      if (answer.error || !answer.data) {
        problem.value = answer.error ?? lostConnection;
        status.value = '';
        return;
      }
      const name = fileNameOf(answer.response.headers.get('content-disposition'), 'timetrack-export.zip');
      saveFile(answer.data as Blob, name);
      status.value = `Downloaded ${name}.`;
    } catch {
      problem.value = lostConnection;
      status.value = '';
    } finally {
      busy.value = false;
    }
  };

  return (
    <section class="card" aria-labelledby="export-heading">
      <h2 id="export-heading">Export</h2>
      <p class="muted">
        One ZIP archive of every record of this workspace (its settings, people, clients, projects and their members, tasks, tags, rates, time entries,
        reports, timesheet locks, requests, geofences, and webhooks without their secrets), which another timetrack workspace takes back in Settings →
        Import.
      </p>
      <button type="button" class="primary" disabled={busy.value} onClick={() => void download()}>
        Download everything
      </button>
      <p role="status" class="muted" data-testid="export-status">
        {status.value}
      </p>
      {problem.value && (
        <p class="error" role="alert">
          {problemMessage(problem.value)}
        </p>
      )}
    </section>
  );
}
