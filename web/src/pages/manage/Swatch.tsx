/** A project's color as a small square beside its name; the name says which project, so it is hidden from assistive technology. */
export function Swatch({ color }: { color: string }) {
  return <span class="swatch" style={{ backgroundColor: color }} aria-hidden="true" />;
}
