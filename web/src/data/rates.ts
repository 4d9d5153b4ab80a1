import { api, type Problem } from '../api/client.js';

/** A rate in force over a period: a user's cost, or a project member's revenue, per hour. */
export interface Rate {
  id: string;
  currency: string;
  from: string;
  to?: string | null;
  taxRate: number;
  value: number;
}
export type RateBody = Omit<Rate, 'id'>;

/** The rates of one user or one member over time: how a rate list reads and writes them. */
export interface RateTimeline {
  load(): Promise<Rate[]>;
  create(body: RateBody): Promise<{ error?: Problem }>;
  update(rateId: string, body: RateBody): Promise<{ error?: Problem }>;
  remove(rateId: string): Promise<{ error?: Problem }>;
}

/** A user's cost rates (administrators). */
export function costRatesOf(userId: string): RateTimeline {
  const path = { userId };
  return {
    load: async () => Object.values((await api.GET('/users/{userId}/rates/cost', { params: { path } })).data ?? {}),
    create: (body) => api.POST('/users/{userId}/rates/cost', { params: { path }, body }),
    update: (costId, body) => api.PUT('/users/{userId}/rates/cost/{costId}', { params: { path: { ...path, costId } }, body }),
    remove: (costId) => api.DELETE('/users/{userId}/rates/cost/{costId}', { params: { path: { ...path, costId } } }),
  };
}

/** A project member's revenue rates (administrators and the project's admins). */
export function revenueRatesOf(projectId: string, memberId: string): RateTimeline {
  const path = { projectId, memberId };
  return {
    load: async () => Object.values((await api.GET('/projects/{projectId}/members/{memberId}/rates/revenue', { params: { path } })).data ?? {}),
    create: (body) => api.POST('/projects/{projectId}/members/{memberId}/rates/revenue', { params: { path }, body }),
    update: (revenueId, body) => api.PUT('/projects/{projectId}/members/{memberId}/rates/revenue/{revenueId}', { params: { path: { ...path, revenueId } }, body }),
    remove: (revenueId) => api.DELETE('/projects/{projectId}/members/{memberId}/rates/revenue/{revenueId}', { params: { path: { ...path, revenueId } } }),
  };
}
