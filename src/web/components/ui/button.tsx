import { Slot } from '@radix-ui/react-slot';
import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

export const buttonVariants = cva(
  'inline-flex items-center justify-center gap-2 text-center wrap-break-word font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:pointer-events-none disabled:opacity-60 [&_svg]:size-4 [&_svg]:shrink-0',
  {
    variants: {
      variant: {
        primary: 'bg-primary text-primary-foreground shadow-sm hover:bg-primary-hover',
        destructive:
          'bg-destructive text-destructive-foreground shadow-sm hover:bg-destructive-hover',
        outline: 'border border-input bg-surface text-foreground hover:bg-surface-muted',
        ghost: 'text-foreground hover:bg-surface-muted',
        /** A way back or aside: muted until pointed at. */
        quiet: 'text-muted-foreground hover:bg-surface-muted hover:text-foreground',
        /** An icon button that deletes or removes. */
        'ghost-destructive': 'text-destructive hover:bg-destructive-soft',
        'outline-destructive':
          'border border-input bg-surface text-destructive hover:bg-surface-muted',
        soft: 'bg-primary-soft text-primary hover:bg-primary-soft/70',
        link: 'text-primary underline-offset-4 hover:underline',
      },
      size: {
        default: 'min-h-11 rounded-xl px-4 py-2 text-sm',
        sm: 'min-h-9 rounded-xl px-3 text-sm',
        lg: 'min-h-12 rounded-xl px-6 text-base',
        icon: 'size-11 rounded-xl text-sm',
        /** A round icon on a phone, the icon and its label from the small breakpoint up. */
        'icon-phone': 'size-11 rounded-full text-sm sm:size-auto sm:min-h-11 sm:rounded-xl sm:px-4',
      },
    },
    defaultVariants: { variant: 'primary', size: 'default' },
  },
);

export interface ButtonProps extends ComponentProps<'button'>, VariantProps<typeof buttonVariants> {
  /** Render the child element (a link, say) with the button's look. */
  asChild?: boolean;
}

export function Button({ className, variant, size, asChild, type, ...props }: ButtonProps) {
  const Component = asChild ? Slot : 'button';
  const buttonType = type ?? 'button';
  return (
    <Component
      className={cn(buttonVariants({ variant, size }), className)}
      {...(asChild ? {} : { type: buttonType })}
      {...props}
    />
  );
}
