/** The Add/Update Family Member dialog: Name, Date of Birth, Sex and one of six colours. */
import { zodResolver } from '@hookform/resolvers/zod';
import { Check } from 'lucide-react';
import { useEffect, useId } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { DEFAULT_MEMBER_COLOR, MEMBER_COLOR_NAMES, MEMBER_COLORS } from '../../../shared/constants';
import {
  familyMemberFields,
  familyMemberSchema,
  type FamilyMember,
} from '../../../shared/family-members';
import { toasts } from '../../../shared/messages';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { fieldErrorProps, FormField } from '../../components/ui/form-field';
import { Input, Select } from '../../components/ui/input';
import { showError, showSuccess } from '../../lib/toast';
import { useSaveFamilyMember } from './family-member-queries';

type FormValues = z.input<typeof familyMemberSchema>;
type Parsed = z.output<typeof familyMemberSchema>;

const emptyValues = { name: '', date_of_birth: '', sex: '', color: DEFAULT_MEMBER_COLOR };
// The fields' own labels (the shared definition's words).
const {
  name: nameField,
  date_of_birth: dateOfBirthField,
  sex: sexField,
  color: colorField,
} = familyMemberFields;

export function MemberDialog({
  open,
  onOpenChange,
  member,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The member to update; none to add a new one. */
  member?: FamilyMember;
}) {
  const { t } = useTranslation();
  /** A message of the shared schema, in the language in force. */
  const said = (message: string | undefined) => (message ? t(message) : undefined);
  const save = useSaveFamilyMember();
  const form = useForm<FormValues, unknown, Parsed>({
    resolver: zodResolver(familyMemberSchema),
    defaultValues: emptyValues,
  });
  const colorNameId = useId();

  useEffect(() => {
    if (open) {
      form.reset(
        member
          ? {
              name: member.name,
              date_of_birth: member.date_of_birth ?? '',
              sex: member.sex ?? '',
              color: member.color,
            }
          : emptyValues,
      );
    }
  }, [open, member, form]);

  const editing = member !== undefined;
  const selectedColor = form.watch('color');
  const errors = form.formState.errors;
  // Each input's field name and error wiring (names and ids, not words).
  const inputs = {
    name: { ...fieldErrorProps('member-name', errors.name), ...form.register('name') },
    dateOfBirth: {
      ...fieldErrorProps('member-dob', errors.date_of_birth),
      ...form.register('date_of_birth'),
    },
    sex: { ...fieldErrorProps('member-sex', errors.sex), ...form.register('sex') },
    color: form.register('color'),
  };

  const submit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync({ id: member?.id, input: values });
      showSuccess(t(editing ? toasts.memberUpdated : toasts.memberAdded));
      onOpenChange(false);
    } catch (error) {
      showError(t(toasts.error), error);
    }
  });

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={editing ? t('Update Family Member') : t('Add Family Member')}>
        <form onSubmit={submit} className="space-y-4" noValidate={false}>
          <FormField
            id="member-name"
            label={t(nameField.label)}
            required
            error={said(errors.name?.message)}
          >
            <Input id="member-name" required autoComplete="off" {...inputs.name} />
          </FormField>
          <FormField
            id="member-dob"
            label={t(dateOfBirthField.label)}
            error={said(errors.date_of_birth?.message)}
          >
            <Input id="member-dob" type="date" {...inputs.dateOfBirth} />
          </FormField>
          <FormField id="member-sex" label={t(sexField.label)} error={said(errors.sex?.message)}>
            <Select id="member-sex" {...inputs.sex}>
              <option value="">{sexField.emptyLabel ? t(sexField.emptyLabel) : null}</option>
              {sexField.options?.map((option) => (
                <option key={option.value} value={option.value}>
                  {t(option.label)}
                </option>
              ))}
            </Select>
          </FormField>
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium">{t(colorField.label)}</legend>
            <div className="flex flex-wrap gap-3">
              {MEMBER_COLORS.map((color) => (
                <label
                  key={color}
                  className="relative flex size-11 cursor-pointer items-center justify-center rounded-full shadow-sm ring-offset-2 ring-offset-surface has-[:checked]:ring-2 has-[:checked]:ring-foreground has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring"
                  style={{ backgroundColor: color }}
                >
                  {/* Named by its hex value (CONTRACT §2), described by its name in words. */}
                  <input
                    type="radio"
                    value={color}
                    aria-label={color}
                    aria-describedby={`${colorNameId}-${color.slice(1)}`}
                    className="absolute inset-0 size-full cursor-pointer appearance-none rounded-full opacity-0"
                    {...inputs.color}
                  />
                  <span id={`${colorNameId}-${color.slice(1)}`} hidden>
                    {t(MEMBER_COLOR_NAMES[color])}
                  </span>
                  {selectedColor === color ? (
                    <Check className="size-5 text-white" aria-hidden="true" />
                  ) : null}
                </label>
              ))}
            </div>
          </fieldset>
          <Button type="submit" size="lg" className="w-full" disabled={save.isPending}>
            {save.isPending ? t('Saving...') : editing ? t('Update Member') : t('Add Member')}
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}
