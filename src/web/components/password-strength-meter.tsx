/**
 * How strong the password being typed is, under its field: a bar of four and the score in
 * words, and a plain warning when it is one of the most common breached passwords. It only
 * tells; SPEC's rule (at least 6 characters) stays the only refusal. zxcvbn and its
 * dictionaries load in their own chunk once the first character is typed, so the first
 * screen does not carry them. For every form that sets a password (sign-up, a reset, a
 * change); the field names this meter in its aria-describedby.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PasswordStrength } from '../../shared/password-strength';
import { cn } from '../lib/cn';

const loadPasswordStrength = () =>
  import('../../shared/password-strength').then((module) => module.passwordStrength);

const BAR_COLOURS = [
  'bg-destructive',
  'bg-destructive',
  'bg-amber-500',
  'bg-primary',
  'bg-primary',
] as const;

export function PasswordStrengthMeter({ id, password }: { id: string; password: string }) {
  const { t } = useTranslation();
  const [strength, setStrength] = useState<PasswordStrength | null>(null);

  useEffect(() => {
    if (!password) {
      setStrength(null);
      return;
    }
    let current = true;
    loadPasswordStrength().then(
      (measure) => current && setStrength(measure(password)),
      // Without the chunk (offline, say) there is nothing to tell; the form still works.
      () => current && setStrength(null),
    );
    return () => {
      current = false;
    };
  }, [password]);

  const shown = password && strength ? strength : null;
  return (
    // Always there, so that screen readers hear each new verdict.
    <div id={id} aria-live="polite" className="space-y-1 empty:hidden">
      {shown ? (
        <>
          <div className="flex gap-1" aria-hidden="true">
            {[1, 2, 3, 4].map((step) => (
              <span
                key={step}
                className={cn(
                  'h-1.5 flex-1 rounded-full',
                  shown.score >= step ? BAR_COLOURS[shown.score] : 'bg-surface-muted',
                )}
              />
            ))}
          </div>
          <p className="text-xs text-muted-foreground">
            {t('Strength: {strength}', { strength: t(shown.label) })}
          </p>
          {shown.message ? (
            <p
              className={cn(
                'text-xs',
                shown.common ? 'font-medium text-destructive' : 'text-muted-foreground',
              )}
            >
              {t(shown.message)}
            </p>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
