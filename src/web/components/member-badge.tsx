/** A family member's name with their colour, on cards and detail pages. */
export function MemberBadge({ name, color }: { name: string | null; color: string | null }) {
  if (!name) return null;
  return (
    <span className="inline-flex items-center gap-1.5 text-xs font-medium text-muted-foreground">
      <span
        className="size-2 rounded-full"
        style={{ backgroundColor: color ?? 'var(--accent)' }}
        aria-hidden="true"
      />
      {name}
    </span>
  );
}
