/**
 * Who may do what (decisions §5), by workspace role, in one place. A route names the permission it
 * needs (`config: { permission: 'organization:update' }`); rules that depend on the record (owner,
 * project admin) live in the area's own rules and build on these.
 */
export const ROLES = ['Administrator', 'User'] as const;
export type Role = (typeof ROLES)[number];

const ADMIN: readonly Role[] = ['Administrator'];
const EVERYONE: readonly Role[] = ROLES;

const PERMISSIONS = {
  'organization:read': EVERYONE,
  'organization:update': ADMIN,
  'organization:delete': ADMIN,
  'activities:read:all': ADMIN,
  'activities:write:all': ADMIN,
  'projects:read:all': ADMIN,
  'projects:create': ADMIN,
  'projects:delete': ADMIN,
  'projects:update:all': ADMIN,
  'members:write:all': ADMIN,
  'users:read': EVERYONE,
  'users:invite': ADMIN,
  'users:delete': ADMIN,
  'users:manage': ADMIN,
  'rates:cost:read:all': ADMIN,
  'rates:cost:write': ADMIN,
  'rates:revenue:all': ADMIN,
  'requests:read:all': ADMIN,
  'requests:resolve': ADMIN,
  'timesheets:manage': ADMIN,
  'billing:manage': ADMIN,
  'geofences:read': EVERYONE,
  'geofences:write': ADMIN,
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export const can = (role: Role, permission: Permission): boolean =>
  (PERMISSIONS[permission] as readonly Role[]).includes(role);

export const isAdmin = (role: Role): boolean => role === 'Administrator';
