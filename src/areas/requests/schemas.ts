import { Type, type Static } from '@sinclair/typebox';
import { Id, IdMap, Nullable, StringEnum, Timestamp } from '../../route-kit/schemas.js';

export const REQUEST_STATUSES = ['PENDING', 'REJECTED', 'RESOLVED'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** The kinds of request, one per pair of create and resolve routes. */
export const REQUEST_TYPES = [
  'roleChange',
  'assignment',
  'projectAssignment',
  'impersonation',
  'timesheetUnlock',
  'timesheetApproval',
] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];

const MEMBER_ROLES = ['Administrator', 'User'] as const;

const recordFields = {
  id: Type.String(),
  status: StringEnum(REQUEST_STATUSES),
  createdAt: Timestamp(),
  createdBy: Type.Optional(Type.String({ description: 'The requesting user; absent for requests made with the CLI' })),
  resolvedAt: Nullable(Timestamp('null while pending')),
  resolvedBy: Nullable(
    Type.String({ description: 'The resolving administrator; null while pending (or once that user is deleted)' }),
  ),
};

export const WorkflowRequest = Type.Object(recordFields, { $id: 'WorkflowRequest', title: 'WorkflowRequest' });
export type WorkflowRequest = Static<typeof WorkflowRequest>;

/** The answer to creating a role-change request: the record plus what it asks for. */
export const RoleChangeRequestCreated = Type.Object({
  ...recordFields,
  projectId: Type.String(),
  role: StringEnum(MEMBER_ROLES),
});

const { id: _id, ...fieldsAfterId } = recordFields;

/** What GET /requests and GET /requests/{requestId} answer: the record, its type and its payload. */
export const WorkflowRequestDetail = Type.Object(
  {
    id: Type.String(),
    type: StringEnum(REQUEST_TYPES, 'The kind of request'),
    ...fieldsAfterId,
    projectId: Type.Optional(Type.String({ description: 'roleChange, assignment' })),
    memberId: Type.Optional(Type.String({ description: 'roleChange' })),
    role: Type.Optional(StringEnum(MEMBER_ROLES, 'roleChange: the role asked for')),
    userIds: Type.Optional(Type.Array(Type.String(), { description: 'assignment: the users to assign' })),
    year: Type.Optional(Type.Integer({ description: 'timesheetUnlock, timesheetApproval: ISO week-numbering year' })),
    week: Type.Optional(Type.Integer({ description: 'timesheetUnlock, timesheetApproval: ISO week' })),
    projectIds: Type.Optional(
      Type.Array(Type.String(), { description: 'projectAssignment, once resolved: the projects the requester joined' }),
    ),
  },
  { $id: 'WorkflowRequestDetail', title: 'WorkflowRequestDetail' },
);
export type WorkflowRequestDetail = Static<typeof WorkflowRequestDetail>;

export const WorkflowRequestMap = IdMap(
  Type.Ref(WorkflowRequestDetail),
  'Requests by id, in creation order: an administrator sees all, a User their own',
);

export const ResolveStatus = StringEnum(['RESOLVED', 'REJECTED'] as const, 'RESOLVED applies the request, REJECTED only closes it');

export const ResolveBody = Type.Object({ status: ResolveStatus });

export const AssignResolveBody = Type.Object({
  status: ResolveStatus,
  projectIds: Type.Optional(
    Type.Array(Type.String({ maxLength: 64 }), {
      maxItems: 100,
      description: 'Required and non-empty for RESOLVED: projects of this workspace the requester joins; ignored for REJECTED',
    }),
  ),
});

export const RoleChangeBody = Type.Object({ role: StringEnum(MEMBER_ROLES, 'The project role asked for') });

export const AssignmentBody = Type.Object({
  userIds: Type.Array(Type.String({ maxLength: 64 }), {
    minItems: 1,
    maxItems: 100,
    description: 'Unarchived users of this workspace; repeats count once',
  }),
});

/** Path ids are opaque: any string, so a malformed id is 404, never 422. */
export const RequestParams = Type.Object({ requestId: Id });
export { MemberParams, ProjectParams } from '../projects/index.js';
/** Parsed strictly by the route (422 at /path/year or /path/week), so plain strings here. */
export const WeekParams = Type.Object({
  year: Type.String({ pattern: '^[0-9]{4}$', description: 'ISO week-numbering year, four digits' }),
  week: Type.String({ pattern: '^[0-9]{1,2}$', description: 'ISO week number in the organization time zone, 1–53' }),
});

