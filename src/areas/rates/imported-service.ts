import type { Trx } from '../../db/database.js';
import { insertImportedRates, type ImportedRate } from './repository.js';

/**
 * Adds the rates an import brings, in the import's transaction (docs/rules.md §6 Imports). The import
 * planned them only where no rate of the member (or user) is in force, so they overlap none.
 */
export const addImportedRates = (
  trx: Trx,
  organizationId: string,
  rates: { revenue: ReadonlyArray<ImportedRate & { projectId: string; memberId: string }>; cost: ReadonlyArray<ImportedRate & { userId: string }> },
): Promise<void> => insertImportedRates(trx, organizationId, rates.revenue, rates.cost);
