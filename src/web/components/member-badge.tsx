/** A family member's name with their colour, on cards and detail pages. */
export function MemberBadge({ name, color }: { name: string | null; color: string | null }) {
  if (!name) return null;
  return (
    <span className="inline-flex max-w-full items-center gap-1.5 text-xs font-medium text-muted-foreground">
      <span
        className="size-2 shrink-0 rounded-full"
        style={{ backgroundColor: color ?? 'var(--accent)' }}
        aria-hidden="true"
      />
      {/* A long name is cut to one line: the record, not the name, is what the card is for. */}
      <span className="truncate">{name}</span>
    </span>
  );
}
