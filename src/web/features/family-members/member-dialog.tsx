/** The Add/Update Family Member dialog: Name, Date of Birth, Sex and one of six colours. */
import { zodResolver } from '@hookform/resolvers/zod';
import { Check } from 'lucide-react';
import { useEffect, useId } from 'react';
import { useForm } from 'react-hook-form';
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
const sexField = familyMemberFields.sex;

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

  const submit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync({ id: member?.id, input: values });
      showSuccess(editing ? toasts.memberUpdated : toasts.memberAdded);
      onOpenChange(false);
    } catch (error) {
      showError(toasts.error, error);
    }
  });

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={editing ? 'Update Family Member' : 'Add Family Member'}>
        <form onSubmit={submit} className="space-y-4" noValidate={false}>
          <FormField id="member-name" label="Name" required error={errors.name?.message}>
            <Input
              id="member-name"
              required
              autoComplete="off"
              {...fieldErrorProps('member-name', errors.name)}
              {...form.register('name')}
            />
          </FormField>
          <FormField id="member-dob" label="Date of Birth" error={errors.date_of_birth?.message}>
            <Input
              id="member-dob"
              type="date"
              {...fieldErrorProps('member-dob', errors.date_of_birth)}
              {...form.register('date_of_birth')}
            />
          </FormField>
          <FormField id="member-sex" label={sexField.label} error={errors.sex?.message}>
            <Select
              id="member-sex"
              {...fieldErrorProps('member-sex', errors.sex)}
              {...form.register('sex')}
            >
              <option value="">{sexField.emptyLabel}</option>
              {sexField.options?.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </Select>
          </FormField>
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium">Color</legend>
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
                    {...form.register('color')}
                  />
                  <span id={`${colorNameId}-${color.slice(1)}`} hidden>
                    {MEMBER_COLOR_NAMES[color]}
                  </span>
                  {selectedColor === color ? (
                    <Check className="size-5 text-white" aria-hidden="true" />
                  ) : null}
                </label>
              ))}
            </div>
          </fieldset>
          <Button type="submit" size="lg" className="w-full" disabled={save.isPending}>
            {save.isPending ? 'Saving...' : editing ? 'Update Member' : 'Add Member'}
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}
