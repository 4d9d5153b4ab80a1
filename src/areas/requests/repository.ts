import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { readableRows, type ReadableScope } from '../../db/record-scopes.js';
import type { RequestsTable } from '../../db/tables/workflows.js';
import { fromJson, toJson } from '../../db/values.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import type { RequestStatus, RequestType, WorkflowRequest, WorkflowRequestDetail } from './schemas.js';

export type RequestRow = Selectable<RequestsTable>;

/** What a request is about; which fields are set depends on its type. */
export interface RequestPayload {
  projectId?: string;
  memberId?: string;
  role?: 'Administrator' | 'User';
  userIds?: string[];
  year?: number;
  week?: number;
  projectIds?: string[];
  /** impersonation: why support asks (given to the CLI); carried into the support mail, not returned. */
  reason?: string;
}

export async function insertRequest(
  db: Db,
  request: { organizationId: string; type: RequestType; createdBy: string | null; payload: RequestPayload },
): Promise<RequestRow> {
  const row: RequestRow = {
    id: newId(),
    organization_id: request.organizationId,
    type: request.type,
    status: 'PENDING',
    created_by: request.createdBy,
    created_at: nowIso(),
    resolved_at: null,
    resolved_by: null,
    payload: toJson(request.payload),
  };
  await db.insertInto('requests').values(row).execute();
  return row;
}

export async function findRequest(db: Db, organizationId: string, requestId: string): Promise<RequestRow | undefined> {
  return db
    .selectFrom('requests')
    .selectAll()
    .where('id', '=', requestId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}

/** The workspace's requests the reader may read (a request is its creator's own), in creation order. */
export async function listRequests(db: Db, organizationId: string, reader: ReadableScope): Promise<WorkflowRequestDetail[]> {
  let query = db.selectFrom('requests').selectAll().where('organization_id', '=', organizationId);
  const readable = readableRows(reader, { organizationId, userColumn: 'created_by' });
  if (readable !== null) query = query.where(readable);
  const rows = await query.orderBy('created_at').orderBy('id').execute();
  return rows.map(toRequestDetail);
}

/**
 * Closes a pending request: one conditional UPDATE that only a PENDING row matches. In PostgreSQL a
 * concurrent resolution waits on the row lock this takes and then matches nothing; SQLite runs one
 * transaction at a time. So of two concurrent resolutions exactly one gets true.
 */
export async function closePendingRequest(
  db: Db,
  requestId: string,
  resolution: { status: Exclude<RequestStatus, 'PENDING'>; resolvedBy: string; resolvedAt: string },
): Promise<boolean> {
  const result = await db
    .updateTable('requests')
    .set({ status: resolution.status, resolved_by: resolution.resolvedBy, resolved_at: resolution.resolvedAt })
    .where('id', '=', requestId)
    .where('status', '=', 'PENDING')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function updatePayload(db: Db, requestId: string, payload: RequestPayload): Promise<void> {
  await db.updateTable('requests').set({ payload: toJson(payload) }).where('id', '=', requestId).execute();
}

export const payloadOf = (row: RequestRow): RequestPayload => fromJson<RequestPayload>(row.payload) ?? {};

export function toRequestRecord(row: RequestRow): WorkflowRequest {
  const record: WorkflowRequest = {
    id: row.id,
    status: row.status as RequestStatus,
    createdAt: row.created_at,
    resolvedAt: row.resolved_at,
    resolvedBy: row.resolved_by,
  };
  if (row.created_by !== null) record.createdBy = row.created_by;
  return record;
}

const PAYLOAD_FIELDS = ['projectId', 'memberId', 'role', 'userIds', 'year', 'week', 'projectIds'] as const;

export function toRequestDetail(row: RequestRow): WorkflowRequestDetail {
  const payload = payloadOf(row);
  const detail: WorkflowRequestDetail = { ...toRequestRecord(row), type: row.type as RequestType };
  for (const field of PAYLOAD_FIELDS) {
    if (payload[field] !== undefined) Object.assign(detail, { [field]: payload[field] });
  }
  return detail;
}
