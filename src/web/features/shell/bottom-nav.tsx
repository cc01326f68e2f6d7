/** The bottom navigation of every screen: Timeline, List, Add, Share, Contacts. */
import { BookUser, ClipboardList, House, Plus, Share2, type LucideIcon } from 'lucide-react';
import { NavLink } from 'react-router';
import { cn } from '../../lib/cn';

function NavItem({
  to,
  label,
  icon: Icon,
  end,
}: {
  to: string;
  label: string;
  icon: LucideIcon;
  end?: boolean;
}) {
  return (
    <NavLink
      to={to}
      end={end}
      className={({ isActive }) =>
        cn(
          'flex min-h-14 flex-1 flex-col items-center justify-center gap-0.5 rounded-xl text-xs font-medium transition-colors',
          isActive ? 'text-primary' : 'text-muted-foreground hover:text-foreground',
        )
      }
    >
      <Icon className="size-6" aria-hidden="true" />
      <span>{label}</span>
    </NavLink>
  );
}

export function BottomNav({
  onAdd,
  onAddIntent,
}: {
  onAdd: () => void;
  /** The pointer or focus reached Add: what it opens can start loading. */
  onAddIntent?: () => void;
}) {
  return (
    <nav
      aria-label="Main"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-border bg-surface/95 pb-safe backdrop-blur supports-[backdrop-filter]:bg-surface/85"
    >
      <div className="mx-auto flex max-w-2xl items-center gap-1 px-2 py-1">
        <NavItem to="/" label="Timeline" icon={House} end />
        <NavItem to="/list" label="List" icon={ClipboardList} />
        <div className="flex flex-1 justify-center">
          <button
            type="button"
            onClick={onAdd}
            onPointerEnter={onAddIntent}
            onPointerDown={onAddIntent}
            onFocus={onAddIntent}
            aria-label="Add"
            className="-mt-7 flex size-15 items-center justify-center rounded-full bg-primary text-primary-foreground shadow-lg ring-4 ring-background transition-transform hover:bg-primary-hover active:scale-95"
          >
            <Plus className="size-7" aria-hidden="true" />
          </button>
        </div>
        <NavItem to="/share" label="Share" icon={Share2} />
        <NavItem to="/contacts" label="Contacts" icon={BookUser} />
      </div>
    </nav>
  );
}
