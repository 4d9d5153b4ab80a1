import { signal } from '@preact/signals';

/**
 * Another tab of this workspace changed something, or this one did, or the window came back into
 * focus: pages reload what they show when this ticks (docs/web-app.md "Data layer").
 */
export const changes = signal(0);

const channel = 'BroadcastChannel' in window ? new BroadcastChannel('timetrack') : null;
if (channel) channel.onmessage = () => changes.value++;
addEventListener('focus', () => changes.value++);

/** Tells the other tabs that this one wrote something (and reloads this one's views). */
export function announceChange(): void {
  channel?.postMessage('changed');
  changes.value++;
}
