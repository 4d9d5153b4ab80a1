import { useSignalEffect } from '@preact/signals';
import { changes } from '../../data/changes.js';
import { loadRequests, pendingRequests } from '../../data/requests.js';
import { me } from '../../data/session.js';
import './manage.css';
import { lazyPage } from './lazy.js';

/** The management pages, by path: admins-only ones refuse the others with a "not allowed" page. */
export const MANAGE_PAGES: Record<string, { title: string; page: () => preact.JSX.Element }> = {
  '/projects': { title: 'Projects', page: lazyPage(() => import('../projects/ProjectsPage.js').then((m) => m.ProjectsPage)) },
  '/clients': { title: 'Clients', page: lazyPage(() => import('../clients/ClientsPage.js').then((m) => m.ClientsPage), { adminOnly: true }) },
  '/team': { title: 'Team', page: lazyPage(() => import('../team/TeamPage.js').then((m) => m.TeamPage), { adminOnly: true }) },
  '/requests': { title: 'Requests', page: lazyPage(() => import('../requests/RequestsPage.js').then((m) => m.RequestsPage)) },
  '/settings': { title: 'Settings', page: lazyPage(() => import('../settings/SettingsPage.js').then((m) => m.SettingsPage), { adminOnly: true }) },
  '/reports': { title: 'Reports', page: lazyPage(() => import('../reports/ReportsPage.js').then((m) => m.ReportsPage)) },
  '/geofences': { title: 'Geofences', page: lazyPage(() => import('../geofences/GeofencesPage.js').then((m) => m.GeofencesPage)) },
};

/** The navigation's management links: what the person's role does not offer is not shown. */
export function ManageLinks({ link }: { link: (href: string, label: string) => preact.JSX.Element }) {
  const admin = me.value?.role === 'Administrator';
  const count = pendingRequests.value;
  useSignalEffect(() => {
    void changes.value;
    void loadRequests();
  });
  return (
    <>
      {link('/reports', 'Reports')}
      {link('/projects', 'Projects')}
      {admin && link('/clients', 'Clients')}
      {admin && link('/team', 'Team')}
      <span class="nav-count">
        {link('/requests', 'Requests')}
        {!!count && (
          <span class="count" data-testid="pending-count">
            {count}
            <span class="visually-hidden"> pending</span>
          </span>
        )}
      </span>
      {admin && link('/settings', 'Settings')}
      {link('/geofences', 'Geofences')}
    </>
  );
}
