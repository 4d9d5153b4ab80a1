/**
 * A value now, or a promise of it when it must wait: a hot path built of such steps costs no promise
 * and no turn of the microtask queue when nothing waits (a SQLite read on an idle connection).
 */
export type MaybePromise<T> = T | Promise<T>;

/** `next` applied to the value, at once when there is one, else when the promise settles. */
export function andThen<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}
