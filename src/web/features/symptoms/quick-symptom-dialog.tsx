/**
 * The timeline's quick symptom entry (CONTRACT §6 'Symptoms'), in three taps: the prompt,
 * a symptom (one of the person's recent ones, or typed), a severity. It saves at once, started
 * now; anything else (an end, notes) is for the full form. Loaded when the prompt is first
 * tapped, so the timeline carries none of it, the dialog itself included.
 */
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../shared/dates';
import { currentLanguage } from '../../../shared/i18n/translate';
import { symptomDefinition } from '../../../shared/records';
import { SEVERITY_MAX, SEVERITY_MIN } from '../../../shared/records/symptoms';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { FieldError, fieldErrorProps } from '../../components/ui/form-field';
import { Input, Label } from '../../components/ui/input';
import { showError, showSuccess } from '../../lib/toast';
import { useRecordList, useSaveRecord } from '../records/record-queries';

/** The typed symptom's input (its error's id is this with '-error'). */
const SYMPTOM_INPUT = 'quick-symptom';

/** How many of the person's recent symptoms are offered to tap. */
const RECENT_CHOICES = 6;
const SEVERITIES = Array.from(
  { length: SEVERITY_MAX - SEVERITY_MIN + 1 },
  (_, index) => SEVERITY_MIN + index,
);

export default function QuickSymptomDialog({
  title,
  personId,
  familyMemberId,
  onDone,
}: {
  /** 'How is Sam feeling?' */
  title: string;
  /** Whose recent symptoms are offered. */
  personId: string;
  /** The record's 'Family Member': '' for the user themself. */
  familyMemberId: string;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const recent = useRecordList(symptomDefinition, { member: personId });
  const save = useSaveRecord(symptomDefinition);
  const [symptom, setSymptom] = useState<string | null>(null);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | undefined>();
  const choices = useMemo(() => {
    const seen = new Map<string, string>();
    for (const item of recent.items) {
      const key = item.symptom.toLowerCase();
      if (!seen.has(key)) seen.set(key, item.symptom);
    }
    return [...seen.values()].slice(0, RECENT_CHOICES);
  }, [recent.items]);

  const choose = (name: string) => {
    // The definition's own rule for the name, as the form and the server check it.
    const checked = symptomDefinition.fields.symptom.schema.safeParse(name);
    if (!checked.success) {
      const message = checked.error.issues[0]?.message;
      setError(message === undefined ? undefined : t(message));
      return;
    }
    setError(undefined);
    setSymptom(checked.data);
  };

  const submitTyped = (event: FormEvent) => {
    event.preventDefault();
    choose(typed);
  };

  const saveWith = (severity: number) => {
    if (!symptom) return;
    save.mutate(
      {
        input: {
          symptom,
          severity,
          started_at: new Date().toISOString(),
          ended_at: null,
          notes: null,
          family_member_id: familyMemberId || null,
        },
      },
      {
        onSuccess: () => {
          const { created } = symptomDefinition.messages;
          showSuccess({
            title: t(created.title),
            description: created.description && t(created.description),
          });
          onDone();
        },
        onError: (cause) => showError(t(symptomDefinition.messages.createError), cause),
      },
    );
  };

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onDone())}>
      <DialogContent title={title}>
        {symptom === null ? (
          <div className="space-y-4">
            {choices.length ? (
              <div role="group" aria-label={t('Recent symptoms')} className="flex flex-wrap gap-2">
                {choices.map((name) => (
                  <Button key={name} variant="soft" onClick={() => choose(name)}>
                    {name}
                  </Button>
                ))}
              </div>
            ) : null}
            <form className="grid gap-1.5" onSubmit={submitTyped} noValidate>
              <Label htmlFor={SYMPTOM_INPUT}>{t('Symptom')}</Label>
              <div className="flex gap-2">
                <Input
                  id={SYMPTOM_INPUT}
                  value={typed}
                  autoComplete="off"
                  maxLength={symptomDefinition.fields.symptom.maxLength}
                  onChange={(event) => setTyped(event.target.value)}
                  {...fieldErrorProps(SYMPTOM_INPUT, error)}
                />
                <Button type="submit">{t('Next')}</Button>
              </div>
              <FieldError id="quick-symptom-error" message={error} />
            </form>
          </div>
        ) : (
          <div className="space-y-3">
            <p id="quick-severity-label" className="font-medium">
              {t('How bad is the {symptom}? ({min} mild – {max} worst)', {
                // Inside the sentence in lower case, but as German writes its nouns.
                symptom: currentLanguage() === 'de' ? symptom : symptom.toLowerCase(),
                min: formatNumber(SEVERITY_MIN),
                max: formatNumber(SEVERITY_MAX),
              })}
            </p>
            <div
              role="group"
              aria-labelledby="quick-severity-label"
              className="grid grid-cols-5 gap-2"
            >
              {SEVERITIES.map((severity) => (
                <Button
                  key={severity}
                  variant="outline"
                  aria-label={t('Severity {severity}', { severity: formatNumber(severity) })}
                  disabled={save.isPending}
                  onClick={() => saveWith(severity)}
                >
                  {formatNumber(severity)}
                </Button>
              ))}
            </div>
            <Button variant="ghost" onClick={() => setSymptom(null)}>
              {t('Back')}
            </Button>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
