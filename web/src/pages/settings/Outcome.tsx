import { problemMessage, type Problem } from '../../api/client.js';

/** A form's outcome: a problem that names no field, or "Saved." */
export function Outcome({ problem, saved }: { problem?: Problem; saved: boolean }) {
  if (problem && !problem.errors) {
    return (
      <p class="error" role="alert">
        {problemMessage(problem)}
      </p>
    );
  }
  return saved ? <p role="status">Saved.</p> : null;
}
