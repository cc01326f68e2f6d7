/**
 * The emergency card itself (CONTRACT.md §6): who, born when, allergies with their severity,
 * current medications and their doses, current conditions, emergency contacts and current
 * insurance; on screen one column (two from a tablet's width), on paper two columns on one
 * page.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ageInCalendarMonths, formatAge } from '../../../shared/ages';
import { APP_NAME } from '../../../shared/constants';
import { DAY_GROUP_FORMAT, formatDate, formatNumber } from '../../../shared/dates';
import { doseText, type EmergencyCard } from '../../../shared/emergency-card';
import { key, tr } from '../../../shared/i18n/translate';
import { cn } from '../../lib/cn';

const SEVERITY_STYLE = {
  Severe: 'bg-destructive text-white',
  Moderate: 'bg-destructive-soft text-destructive',
  Mild: 'bg-surface-muted text-foreground',
} as const;

/** 'Born Apr 12, 2017 (9 y 2 mo)', or null when the date of birth is not known. */
export function bornText(card: EmergencyCard): string | null {
  const born = card.person.date_of_birth;
  if (!born) return null;
  return tr('Born {date} ({age})', {
    date: formatDate(born, DAY_GROUP_FORMAT),
    age: formatAge(ageInCalendarMonths(born, card.today)),
  });
}

function Section({
  title,
  empty,
  more = 0,
  children,
  className,
}: {
  title: string;
  empty: boolean;
  /** How many more of its rows the card leaves out. */
  more?: number;
  children: ReactNode;
  className?: string;
}) {
  const { t } = useTranslation();
  // By the English title, the same in every language.
  const id = `emergency-${title.toLowerCase().replace(/\s+/g, '-')}`;
  return (
    <section aria-labelledby={id} className={cn('break-inside-avoid', className)}>
      <h3
        id={id}
        className="mb-2 text-sm font-semibold tracking-wide text-primary uppercase print:text-black"
      >
        {t(title)}
      </h3>
      {empty ? (
        <p className="text-sm text-muted-foreground">{t('None recorded')}</p>
      ) : (
        <ul className="space-y-1.5">{children}</ul>
      )}
      {more > 0 ? (
        <p className="mt-1.5 text-sm text-muted-foreground print:text-black">
          {t('…and {number} more, not shown on this card', {
            count: more,
            number: formatNumber(more),
          })}
        </p>
      ) : null}
    </section>
  );
}

export function EmergencyCardView({ card, qr }: { card: EmergencyCard; qr?: ReactNode }) {
  const { t } = useTranslation();
  const born = bornText(card);
  return (
    <article
      aria-labelledby="emergency-card-name"
      className="rounded-2xl border border-border bg-surface p-5 print:rounded-none print:border-0 print:p-0"
    >
      <div className="flex flex-wrap items-start gap-4 border-b border-border pb-4">
        <div className="min-w-0 flex-1">
          <p className="w-fit rounded-full bg-destructive px-3 py-0.5 text-xs font-bold tracking-wider whitespace-nowrap text-white uppercase">
            {t('Emergency card')}
          </p>
          <h2 id="emergency-card-name" className="mt-2 text-2xl font-bold break-words">
            {card.person.name}
          </h2>
          <p className="text-sm text-muted-foreground print:text-black">
            {born ?? t('Date of birth not recorded')}
          </p>
        </div>
        {qr}
      </div>
      <div className="mt-4 grid gap-5 sm:grid-cols-2 print:grid-cols-2 print:gap-4">
        <Section
          title={key('Allergies')}
          empty={card.allergies.length === 0}
          more={card.not_shown?.allergies}
          className="sm:col-span-2 print:col-span-2"
        >
          {card.allergies.map((allergy) => (
            <li key={allergy.substance} className="flex flex-wrap items-baseline gap-x-2">
              <span className="font-semibold">{allergy.substance}</span>
              {allergy.severity ? (
                <span
                  className={cn(
                    'rounded-md px-1.5 text-xs font-semibold print:border print:border-black print:bg-white print:text-black',
                    SEVERITY_STYLE[allergy.severity],
                  )}
                >
                  {t(allergy.severity)}
                </span>
              ) : null}
              {allergy.reaction ? (
                <span className="text-sm text-muted-foreground print:text-black">
                  {allergy.reaction}
                </span>
              ) : null}
            </li>
          ))}
        </Section>
        <Section
          title={key('Current Medications')}
          empty={card.medications.length === 0}
          more={card.not_shown?.medications}
        >
          {card.medications.map((medication, index) => (
            <li key={`${medication.medication_name}-${index}`}>
              <span className="font-semibold">{medication.medication_name}</span>
              {doseText(medication) ? (
                <span className="block text-sm text-muted-foreground print:text-black">
                  {doseText(medication)}
                </span>
              ) : null}
            </li>
          ))}
        </Section>
        <Section
          title={key('Conditions')}
          empty={card.conditions.length === 0}
          more={card.not_shown?.conditions}
        >
          {card.conditions.map((condition, index) => (
            <li key={`${condition.condition_name}-${index}`}>
              <span className="font-semibold">{condition.condition_name}</span>
              {condition.status ? (
                <span className="text-sm text-muted-foreground print:text-black">
                  {' '}
                  · {t(condition.status)}
                </span>
              ) : null}
            </li>
          ))}
        </Section>
        <Section
          title={key('Emergency Contacts')}
          empty={card.emergency_contacts.length === 0}
          more={card.not_shown?.emergency_contacts}
        >
          {card.emergency_contacts.map((contact, index) => (
            <li key={`${contact.contact_name}-${index}`}>
              <span className="font-semibold">{contact.contact_name}</span>
              <span className="text-sm text-muted-foreground print:text-black">
                {' '}
                · {t(contact.contact_type)}
              </span>
              {contact.phone_number ? (
                <a
                  href={`tel:${contact.phone_number.replace(/[^\d+]/g, '')}`}
                  className="block text-sm font-medium text-primary underline-offset-4 hover:underline print:text-black"
                >
                  {contact.phone_number}
                </a>
              ) : null}
            </li>
          ))}
        </Section>
        <Section
          title={key('Insurance')}
          empty={card.insurance.length === 0}
          more={card.not_shown?.insurance}
        >
          {card.insurance.map((policy, index) => (
            <li key={`${policy.provider_name}-${index}`}>
              <span className="font-semibold">{policy.provider_name}</span>
              <span className="text-sm text-muted-foreground print:text-black">
                {' '}
                · {t(policy.insurance_type)}
              </span>
              {policy.policy_number || policy.group_number ? (
                <span className="block text-sm text-muted-foreground print:text-black">
                  {[
                    policy.policy_number && t('Policy {number}', { number: policy.policy_number }),
                    policy.group_number && t('Group {number}', { number: policy.group_number }),
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </span>
              ) : null}
            </li>
          ))}
        </Section>
      </div>
      <p className="mt-5 text-xs text-muted-foreground print:text-black">
        {t('As of {date}', { date: formatDate(card.today, DAY_GROUP_FORMAT) })} · {APP_NAME}
      </p>
    </article>
  );
}
