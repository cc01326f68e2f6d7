/** A record type's icon on its tint: the same mark on cards, lists, dialogs and details. */
import { FileInput, type LucideIcon } from 'lucide-react';
import type { RecordType } from '../../shared/records/definition';
import { cn } from '../lib/cn';
import {
  documentIcon as DocumentMark,
  documentTint,
  recordIcons,
  recordTints,
} from '../lib/record-icons';

const sizes = {
  sm: { box: 'size-9 rounded-xl', icon: 'size-5' },
  md: { box: 'size-11 rounded-xl', icon: 'size-5' },
  lg: { box: 'size-12 rounded-2xl', icon: 'size-6' },
} as const;

/** A mark on a tint, as a record type's icon is drawn. */
function TintedIcon({
  Mark,
  tint,
  size,
}: {
  Mark: LucideIcon;
  tint: string;
  size: keyof typeof sizes;
}) {
  return (
    <span className={cn('flex shrink-0 items-center justify-center', sizes[size].box, tint)}>
      <Mark className={sizes[size].icon} aria-hidden="true" />
    </span>
  );
}

/** Documents' icon, as a record type's is drawn. */
export function DocumentIcon({ size = 'md' }: { size?: keyof typeof sizes }) {
  return <TintedIcon Mark={DocumentMark} tint={documentTint} size={size} />;
}

/** Bringing records in from a file (/import). */
export function ImportIcon({ size = 'md' }: { size?: keyof typeof sizes }) {
  return <TintedIcon Mark={FileInput} tint="bg-primary-soft text-primary" size={size} />;
}

export function RecordTypeIcon({
  type,
  size = 'md',
  muted = false,
}: {
  type: RecordType;
  size?: keyof typeof sizes;
  /** For dimmed (past) entries: grey instead of the type's tint. */
  muted?: boolean;
}) {
  const Icon = recordIcons[type];
  return (
    <span
      className={cn(
        'flex shrink-0 items-center justify-center',
        sizes[size].box,
        muted ? 'bg-border text-muted-foreground' : recordTints[type],
      )}
    >
      <Icon className={sizes[size].icon} aria-hidden="true" />
    </span>
  );
}
