import { Type, type Static } from '@sinclair/typebox';
import { Id, IdMap, Name, Nullable } from '../../route-kit/schemas.js';

/** Path ids are opaque: any string, so a malformed or overlong id is 404 (not found), never 422. */

/** The largest radius, in metres. */
export const MAX_RADIUS_METRES = 100_000;

const Latitude = Type.Number({ minimum: -90, maximum: 90, description: 'Degrees, −90 to 90' });
const Longitude = Type.Number({ minimum: -180, maximum: 180, description: 'Degrees, −180 to 180' });
/**
 * > 0 is a rule (OpenAPI 3.0 and Ajv disagree on exclusiveMinimum), so the schema states what both read
 * alike, 0 to the maximum, and the operations' descriptions say that 0 itself is 422.
 */
const Radius = Type.Number({ minimum: 0, maximum: MAX_RADIUS_METRES, description: 'Metres, greater than 0 and at most 100,000' });
const Action = Type.String({ maxLength: 1000, description: 'Free-form action the client runs' });
const ProjectRef = Nullable(Type.String({ maxLength: 64, description: 'A project of this workspace, or null for none' }));

export const Geofence = Type.Object(
  {
    id: Type.String(),
    latitude: Type.Number(),
    longitude: Type.Number(),
    radius: Type.Number({ description: 'Metres' }),
    name: Type.Optional(Type.String()),
    enterAction: Type.Optional(Type.String()),
    exitAction: Type.Optional(Type.String()),
    projectId: Type.Optional(
      Nullable(Type.String({ description: 'Always present; null when none or when the project was deleted' })),
    ),
  },
  { $id: 'Geofence', title: 'Geofence' },
);
export type Geofence = Static<typeof Geofence>;

export const GeofenceMap = IdMap(Type.Ref(Geofence), 'The workspace\'s geofences by id, in creation order');

export const GeofenceCreate = Type.Object(
  {
    latitude: Latitude,
    longitude: Longitude,
    radius: Radius,
    name: Type.Optional(Name),
    enterAction: Type.Optional(Action),
    exitAction: Type.Optional(Action),
    projectId: Type.Optional(ProjectRef),
  },
  { description: 'Unknown fields and id are ignored.' },
);
export type GeofenceCreate = Static<typeof GeofenceCreate>;

export const GeofenceUpdate = Type.Object(
  {
    latitude: Type.Optional(Latitude),
    longitude: Type.Optional(Longitude),
    radius: Type.Optional(Radius),
    name: Type.Optional(Nullable(Name)),
    enterAction: Type.Optional(Nullable(Action)),
    exitAction: Type.Optional(Nullable(Action)),
    projectId: Type.Optional(ProjectRef),
  },
  {
    description:
      'Any subset of the fields; the others keep their values. null for name, enterAction or exitAction removes it; null for projectId detaches the project.',
  },
);
export type GeofenceUpdate = Static<typeof GeofenceUpdate>;

export const GeofenceParams = Type.Object({ geofenceId: Id });
