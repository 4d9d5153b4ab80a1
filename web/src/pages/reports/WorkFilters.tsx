import { useSignalEffect } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import type { Project } from '../../api/client.js';
import { Field } from '../../components/Field.js';
import { changes } from '../../data/changes.js';
import { clients, loadClients } from '../../data/clients.js';
import { loadTags, tags } from '../../data/tags.js';
import { loadTasks, tasksByProject } from '../../data/tasks.js';
import { ChoiceFilter } from './ChoiceFilter.js';
import { NONE, TAG_MATCHES, type Draft, type TagMatch } from './definition.js';

const byName = <T extends { name: string }>(a: T, b: T) => a.name.localeCompare(b.name);
const named = (record: { name: string; archived: boolean }) => (record.archived ? `${record.name} (archived)` : record.name);

/**
 * The report's filters by what the work was for and about: clients (and "no client"), tasks of the
 * listed projects (and "no task"), and tags (and "no tag") with how the chosen ones match (any, all
 * or none).
 * Tasks are loaded project by project, so only once the group is unfolded or a report names some.
 */
export function WorkFilters({ draft, projects, change }: { draft: Draft; projects: Project[]; change(patch: Partial<Draft>): void }) {
  useSignalEffect(() => {
    void changes.value;
    void loadClients();
    void loadTags();
  });
  const asked = useRef(new Set<string>());
  const loadAllTasks = () => {
    for (const project of projects) {
      if (asked.current.has(project.id)) continue;
      asked.current.add(project.id);
      void loadTasks(project.id);
    }
  };
  // A saved report that names tasks shows their names without the group being unfolded.
  const namesTasks = draft.taskIds.some((id) => id !== NONE);
  useEffect(() => {
    if (namesTasks) loadAllTasks();
  }, [namesTasks, projects.length]);

  const clientChoices = Object.values(clients.value).sort(byName);
  const taskChoices = projects.flatMap((project) =>
    Object.values(tasksByProject.value[project.id] ?? {})
      .sort(byName)
      .map((task) => ({ id: task.id, label: `${project.name} · ${named(task)}` })),
  );
  const tagChoices = Object.values(tags.value).sort(byName);
  return (
    <>
      <ChoiceFilter
        title="Clients"
        idPrefix="client"
        choices={[...clientChoices.map((client) => ({ id: client.id, label: named(client) })), { id: NONE, label: 'No client' }]}
        chosen={draft.clientIds}
        onChange={(clientIds) => change({ clientIds })}
      />
      <ChoiceFilter title="Tasks" idPrefix="task" choices={[...taskChoices, { id: NONE, label: 'No task' }]} chosen={draft.taskIds} onChange={(taskIds) => change({ taskIds })} onOpen={loadAllTasks} />
      <ChoiceFilter
        title="Tags"
        idPrefix="tag"
        choices={[...tagChoices.map((tag) => ({ id: tag.id, label: named(tag) })), { id: NONE, label: 'No tag' }]}
        chosen={draft.tagIds}
        onChange={(tagIds) => change({ tagIds })}
      />
      <Field id="report-tag-match" label="Entries carrying the chosen tags">
        <select id="report-tag-match" value={draft.tagMatch} disabled={draft.tagIds.length === 0} onChange={(e) => change({ tagMatch: e.currentTarget.value as TagMatch })}>
          {TAG_MATCHES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </Field>
    </>
  );
}
