import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { lockRowForWrite } from '../../db/locks.js';
import type { Db } from '../../db/database.js';
import { notFound } from '../../domain/errors.js';
import { Empty, Id, IdMap, operation } from '../../http/schemas.js';
import { administeredProject, findMember, MemberParams } from '../projects/index.js';
import {
  deleteRevenueRate,
  findRevenueRate,
  insertRevenueRate,
  listRevenueRates,
  updateRevenueRate,
  type MemberRef,
} from './repository.js';
import { assertNoOverlap, checkRateBody, type RatePeriod } from './rules.js';
import { RateBody, RevenueRate } from './schemas.js';

const TAG = 'Revenue rates';
const WHO = 'Administrators and the project\'s admins only: another member of the project gets 403, anyone else 404.';

const RevenueRateParams = Type.Object({ ...MemberParams.properties, revenueId: Id });
const RevenueRateMap = IdMap(Type.Ref(RevenueRate), 'The member\'s revenue rates by id, in creation order');

const rateNotFound = () => notFound('revenue rate');

/** The member the path names, when the caller administers its project (403/404 otherwise, decisions §5). */
async function memberOfPath(db: Db, request: FastifyRequest, params: { projectId: string; memberId: string }): Promise<MemberRef> {
  const actor = request.actor;
  const project = await administeredProject(db, actor, params.projectId, 'rates:revenue');
  const member = await findMember(db, actor.organizationId, project.id, params.memberId);
  if (!member) throw notFound('project member');
  return { organizationId: actor.organizationId, projectId: project.id, memberId: member.id };
}

/**
 * Writes one rate of a member, in a transaction that first takes the member row's write lock: two
 * concurrent writers of one member's rates then run one after another, so the overlap check of the
 * second sees the first's period (409) instead of both committing overlapping periods.
 */
async function writeRate(
  db: Db,
  member: MemberRef,
  period: RatePeriod,
  write: (trx: Db) => Promise<string>,
  exceptRateId?: string,
): Promise<RevenueRate> {
  return db.transaction().execute(async (trx) => {
    if (!(await lockRowForWrite(trx, 'project_members', member.memberId))) throw notFound('project member');
    await assertNoOverlap(trx, 'revenue_rates', { column: 'member_id', id: member.memberId }, period, exceptRateId);
    const id = await write(trx);
    const rate = await findRevenueRate(trx, member, id);
    if (!rate) throw rateNotFound();
    return rate;
  });
}

export const revenueRateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const path = '/projects/:projectId/members/:memberId/rates/revenue';

  app.get(
    path,
    {
      schema: operation({
        operationId: 'listRevenueRates',
        tag: TAG,
        summary: 'A project member\'s revenue rates',
        description: WHO,
        params: MemberParams,
        response: RevenueRateMap,
        errors: { 403: 'A member who is not a project admin' },
      }),
    },
    async (request) => {
      const rates = await listRevenueRates(app.db, await memberOfPath(app.db, request, request.params));
      return Object.fromEntries(rates.map((rate) => [rate.id, rate]));
    },
  );

  app.post(
    path,
    {
      schema: operation({
        operationId: 'createRevenueRate',
        tag: TAG,
        summary: 'Add a revenue rate to a project member',
        description: `${WHO} Periods are half-open [from, to); to null runs forever.`,
        params: MemberParams,
        body: RateBody,
        response: Type.Ref(RevenueRate),
        errors: { 403: 'A member who is not a project admin', 409: 'The period overlaps another rate of the member' },
      }),
    },
    async (request) => {
      const member = await memberOfPath(app.db, request, request.params);
      const period = checkRateBody(request.body);
      return writeRate(app.db, member, period, (trx) => insertRevenueRate(trx, member, period));
    },
  );

  app.get(
    `${path}/:revenueId`,
    {
      schema: operation({
        operationId: 'getRevenueRate',
        tag: TAG,
        summary: 'One revenue rate of a project member',
        description: WHO,
        params: RevenueRateParams,
        response: Type.Ref(RevenueRate),
        errors: { 403: 'A member who is not a project admin' },
      }),
    },
    async (request) => {
      const rate = await findRevenueRate(app.db, await memberOfPath(app.db, request, request.params), request.params.revenueId);
      if (!rate) throw rateNotFound();
      return rate;
    },
  );

  app.put(
    `${path}/:revenueId`,
    {
      schema: operation({
        operationId: 'updateRevenueRate',
        tag: TAG,
        summary: 'Replace a revenue rate',
        description: `${WHO} Takes every field, like creation.`,
        params: RevenueRateParams,
        body: RateBody,
        response: Type.Ref(RevenueRate),
        errors: { 403: 'A member who is not a project admin', 409: 'The period overlaps another rate of the member' },
      }),
    },
    async (request) => {
      const member = await memberOfPath(app.db, request, request.params);
      const rateId = request.params.revenueId;
      if (!(await findRevenueRate(app.db, member, rateId))) throw rateNotFound();
      const period = checkRateBody(request.body);
      return writeRate(
        app.db,
        member,
        period,
        async (trx) => {
          await updateRevenueRate(trx, member, rateId, period);
          return rateId;
        },
        rateId,
      );
    },
  );

  app.delete(
    `${path}/:revenueId`,
    {
      schema: operation({
        operationId: 'deleteRevenueRate',
        tag: TAG,
        summary: 'Delete a revenue rate',
        description: WHO,
        params: RevenueRateParams,
        response: Empty,
        errors: { 403: 'A member who is not a project admin' },
      }),
    },
    async (request) => {
      if (!(await deleteRevenueRate(app.db, await memberOfPath(app.db, request, request.params), request.params.revenueId))) {
        throw rateNotFound();
      }
      return {};
    },
  );
};
