import type { Signal } from '@preact/signals';
import { defaultBillable } from '../data/activities.js';
import { ProjectPicker } from './ProjectPicker.js';
import { TagField } from './TagField.js';
import { TaskPicker } from './TaskPicker.js';

/** What a new entry is worked on: its project, task and tags, and whether it is billable. */
export interface Work {
  projectId: Signal<string | null>;
  taskId: Signal<string | null>;
  tagIds: Signal<string[]>;
  billable: Signal<boolean>;
}

/**
 * The project, task (once a project is picked), tags and billable fields of a new entry, as the timer
 * and Add time ask them (docs/web-app.md, "Track"). Ids are `<prefix>-project`, `-task`, `-tags`,
 * `-billable`. Billable follows the task, else the project, whenever either is picked.
 */
export function WorkFields({ prefix, work, errors }: { prefix: string; work: Work; errors: Record<string, string | undefined> }) {
  const { projectId, taskId, tagIds, billable } = work;
  return (
    <>
      <ProjectPicker
        id={`${prefix}-project`}
        label="Project"
        projectId={projectId.value}
        error={errors.projectId}
        onChange={(id) => {
          projectId.value = id;
          // A task belongs to one project: another project takes none of it (the API refuses it).
          taskId.value = null;
          billable.value = defaultBillable(id, null);
        }}
      />
      {projectId.value && (
        <TaskPicker
          id={`${prefix}-task`}
          label="Task"
          projectId={projectId.value}
          taskId={taskId.value}
          error={errors.taskId}
          onChange={(id) => {
            taskId.value = id;
            billable.value = defaultBillable(projectId.value, id);
          }}
        />
      )}
      <TagField id={`${prefix}-tags`} label="Tags" tagIds={tagIds.value} error={errors.tagIds} onChange={(ids) => (tagIds.value = ids)} />
      <span class="check">
        <input id={`${prefix}-billable`} type="checkbox" checked={billable.value} onChange={(e) => (billable.value = e.currentTarget.checked)} />
        <label for={`${prefix}-billable`}>Billable</label>
      </span>
    </>
  );
}
