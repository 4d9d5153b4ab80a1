import type { Signal } from '@preact/signals';

/** Puts the record into the map under its id, as a new map so that readers of the signal update. */
export function keepById<T extends { id: string }>(map: Signal<Record<string, T>>, record: T): void {
  map.value = { ...map.value, [record.id]: record };
}

/** Takes the record with this id out of the map, as a new map. */
export function dropById<T>(map: Signal<Record<string, T>>, id: string): void {
  const rest = { ...map.value };
  delete rest[id];
  map.value = rest;
}
