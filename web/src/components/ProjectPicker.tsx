import type { Client, Project } from '../api/client.js';
import { clients } from '../data/clients.js';
import { formats } from '../data/preferences.js';
import { projects } from '../data/projects.js';
import { holds, sameName } from '../lib/search.js';
import { Combobox, type Choice } from './Combobox.js';

interface Props {
  id: string;
  label: string;
  projectId: string | null;
  /** Called with another project than the one held (null: no project). */
  onChange(projectId: string | null): void;
  disabled?: boolean;
  error?: string;
  hiddenLabel?: boolean;
}

const NO_PROJECT = 'No project';
const NO_CLIENT = { key: '', label: 'No client' };

/** The client a project is listed under (one the person may not read is none). */
const clientOf = (project: Project, known: Record<string, Client>): Client | undefined => (project.clientId ? known[project.clientId] : undefined);

/**
 * The projects for a search, under their clients (by client name, the projects without one last) when
 * any has a client: a project matches when its name or its client's holds what is typed. With nothing
 * typed the list starts with "No project".
 */
export function projectChoices(list: Project[], known: Record<string, Client>, query: string, locale: string): Choice[] {
  const byName = (a: string, b: string) => a.localeCompare(b, locale);
  const grouped = list.some((project) => clientOf(project, known));
  const matching = list
    .filter((project) => holds(project.name, query) || holds(clientOf(project, known)?.name ?? '', query))
    .sort((a, b) => {
      const [ca, cb] = [clientOf(a, known)?.name, clientOf(b, known)?.name];
      if (ca !== cb) return ca === undefined ? 1 : cb === undefined ? -1 : byName(ca, cb);
      return byName(a.name, b.name);
    });
  const choices = matching.map((project): Choice => {
    const client = clientOf(project, known);
    return { value: project.id, label: project.name, group: grouped ? (client ? { key: client.id, label: client.name } : NO_CLIENT) : undefined };
  });
  return query.trim() === '' ? [{ value: '', label: NO_PROJECT }, ...choices] : choices;
}

/**
 * A searchable project picker (docs/web-app.md "Pickers"): the person's projects under their clients,
 * searched by project or client name. Only a listed project, or none, is taken; a typed name is taken
 * when the field is left and it names a listed project. The chosen project's client shows beneath it.
 */
export function ProjectPicker({ id, label, projectId, onChange, disabled, error, hiddenLabel }: Props) {
  const listed = () => Object.values(projects.value).filter((project) => !project.archived || project.id === projectId);
  const current = projectId ? projects.value[projectId] : undefined;
  const client = current ? clientOf(current, clients.value) : undefined;
  const take = (next: string | null) => {
    if (next !== projectId) onChange(next);
  };
  return (
    <Combobox
      id={id}
      label={label}
      hiddenLabel={hiddenLabel}
      text={current?.name ?? ''}
      value={projectId ?? ''}
      placeholder={NO_PROJECT}
      disabled={disabled}
      error={error}
      describedBy={client ? `${id}-client` : undefined}
      listLabel="Projects"
      choicesFor={(query) => projectChoices(listed(), clients.value, query, formats.value.locale)}
      preferred={(query, choices) => Math.max(0, choices.findIndex((choice) => sameName(choice.label, query)))}
      nothingFor={(query) => `No project or client matches “${query.trim()}”.`}
      onPick={(choice) => take(choice.value || null)}
      onLeave={(typed) => {
        if (typed.trim() === '' || sameName(typed, NO_PROJECT)) return take(null);
        const found = listed().find((project) => project.name === typed.trim()) ?? listed().find((project) => sameName(project.name, typed));
        if (found) take(found.id);
      }}
    >
      {client && (
        <span class="muted client-of" id={`${id}-client`}>
          <span class="visually-hidden">Client: </span>
          {client.name}
        </span>
      )}
    </Combobox>
  );
}
