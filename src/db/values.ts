/** Conversions between stored column values and API values, shared by every repository. */

/** Both stores accept 0/1 for a boolean column; SQLite cannot bind a JavaScript boolean. */
export const toDbBool = (value: boolean): 0 | 1 => (value ? 1 : 0);

/** SQLite reads booleans back as 0/1, PostgreSQL as true/false. */
export const fromDbBool = (value: boolean | number): boolean => value === true || value === 1;

export const toJson = (value: unknown): string => JSON.stringify(value);

export function fromJson<T>(value: string | null): T | null {
  return value === null ? null : (JSON.parse(value) as T);
}
