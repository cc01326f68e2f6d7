/** One icon per record type, used the same way everywhere. */
import {
  BookUser,
  FileText,
  FlaskConical,
  Activity,
  HeartPulse,
  Paperclip,
  Pill,
  ShieldAlert,
  ShieldCheck,
  Stethoscope,
  Syringe,
  Thermometer,
  type LucideIcon,
} from 'lucide-react';
import type { RecordType } from '../../shared/records/definition';

export const recordIcons: Record<RecordType, LucideIcon> = {
  visit: Stethoscope,
  medication: Pill,
  shot: Syringe,
  note: FileText,
  condition: HeartPulse,
  allergy: ShieldAlert,
  lab_result: FlaskConical,
  insurance: ShieldCheck,
  vital: Activity,
  symptom: Thermometer,
  contact: BookUser,
};

/** Soft tints per type, so a glance tells a visit from a medication. */
export const recordTints: Record<RecordType, string> = {
  visit: 'bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-300',
  medication: 'bg-violet-100 text-violet-800 dark:bg-violet-950 dark:text-violet-300',
  shot: 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300',
  note: 'bg-slate-200 text-slate-800 dark:bg-slate-800 dark:text-slate-200',
  condition: 'bg-rose-100 text-rose-800 dark:bg-rose-950 dark:text-rose-300',
  allergy: 'bg-orange-100 text-orange-800 dark:bg-orange-950 dark:text-orange-300',
  lab_result: 'bg-indigo-100 text-indigo-800 dark:bg-indigo-950 dark:text-indigo-300',
  insurance: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300',
  vital: 'bg-lime-100 text-lime-800 dark:bg-lime-950 dark:text-lime-300',
  symptom: 'bg-fuchsia-100 text-fuchsia-800 dark:bg-fuchsia-950 dark:text-fuchsia-300',
  contact: 'bg-teal-100 text-teal-800 dark:bg-teal-950 dark:text-teal-300',
};

/** Documents' mark, beside the record types' (a paper clip on the same kind of tint). */
export const documentIcon: LucideIcon = Paperclip;
export const documentTint = 'bg-indigo-100 text-indigo-800 dark:bg-indigo-950 dark:text-indigo-300';
