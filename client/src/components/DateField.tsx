//! A calendar date entered as day, month and year in the order and with the month names of the
//! user's language (issue 22: the native date input follows the browser's locale, not the
//! interface's, and showed mm/dd/yyyy beside dates written dd/mm/yyyy). The value is
//! `YYYY-MM-DD` as the native input's, or '' while incomplete or not a real date.

import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dateFieldOrder, monthNames } from '../lib/format';
import './date-field.css';

export interface DateFieldProps {
  id: string;
  name: string;
  value: string;
  /** The latest date allowed (`YYYY-MM-DD`); later years are not offered. */
  max?: string;
  invalid?: boolean;
  onChange: (value: string) => void;
}

interface Parts {
  day: string;
  month: string;
  year: string;
}

const split = (value: string): Parts => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return m ? { year: m[1]!, month: String(Number(m[2])), day: String(Number(m[3])) } : { day: '', month: '', year: '' };
};

/** `YYYY-MM-DD` of the parts, or '' when they are not a real date. */
export function joinDate({ day, month, year }: Parts): string {
  const [d, m, y] = [Number(day), Number(month), Number(year)];
  if (!Number.isInteger(d) || !Number.isInteger(m) || !Number.isInteger(y) || year.length !== 4 || y < 1) return '';
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return '';
  return `${year}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

export function DateField({ id, name, value, max, invalid, onChange }: DateFieldProps) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? i18n.language;
  const [parts, setParts] = useState<Parts>(() => split(value));
  // A new value from outside (a patient loaded for editing) replaces what is shown.
  useEffect(() => {
    if (value !== joinDate(parts)) setParts(split(value));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value]);

  const update = (change: Partial<Parts>) => {
    const next = { ...parts, ...change };
    setParts(next);
    onChange(joinDate(next));
  };
  const maxYear = max ? Number(max.slice(0, 4)) : undefined;
  const months = monthNames(lng);
  const inputs = {
    day: (
      <input
        key="day"
        id={`${id}-day`}
        name={`${name}-day`}
        className="date-day"
        type="text"
        inputMode="numeric"
        maxLength={2}
        placeholder={t('dates.dayPlaceholder')}
        aria-label={t('dates.day')}
        aria-invalid={invalid || undefined}
        value={parts.day}
        onChange={(e) => update({ day: e.target.value.replace(/\D/g, '') })}
      />
    ),
    month: (
      <select
        key="month"
        id={id}
        name={`${name}-month`}
        className="date-month"
        aria-label={t('dates.month')}
        aria-invalid={invalid || undefined}
        value={parts.month}
        onChange={(e) => update({ month: e.target.value })}
      >
        <option value="">{t('dates.monthPlaceholder')}</option>
        {months.map((label, i) => (
          <option key={label} value={String(i + 1)}>
            {label}
          </option>
        ))}
      </select>
    ),
    year: (
      <input
        key="year"
        id={`${id}-year`}
        name={`${name}-year`}
        className="date-year"
        type="text"
        inputMode="numeric"
        maxLength={4}
        placeholder={t('dates.yearPlaceholder')}
        aria-label={t('dates.year')}
        aria-invalid={invalid || undefined}
        data-max-year={maxYear}
        value={parts.year}
        onChange={(e) => update({ year: e.target.value.replace(/\D/g, '') })}
      />
    ),
  };
  return (
    <span className="date-field" data-testid={`${name}-field`} data-value={joinDate(parts)}>
      {dateFieldOrder(lng).map((part) => inputs[part])}
    </span>
  );
}
