import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { initI18nWithResources } from '../lib/i18n';
import { allResources } from '../test/translations';
import { DateField, joinDate } from './DateField';

function Harness({ initial, seen }: { initial: string; seen: string[] }) {
  const [value, setValue] = useState(initial);
  return (
    <DateField
      id="d"
      name="birthDate"
      value={value}
      onChange={(v) => {
        seen.push(v);
        setValue(v);
      }}
    />
  );
}

async function renderIn(lng: string, initial = '', seen: string[] = []) {
  const i18n = await initI18nWithResources(allResources(), lng);
  render(
    <I18nextProvider i18n={i18n}>
      <Harness initial={initial} seen={seen} />
    </I18nextProvider>,
  );
  const field = screen.getByTestId('birthDate-field');
  const order = [...field.querySelectorAll('input, select')].map((e) => e.className);
  return { field, order, seen };
}

describe('the date field (issue 22: the picker in the user language)', () => {
  it('Spanish: day, month name, year; a complete real date is YYYY-MM-DD', async () => {
    const { field, order, seen } = await renderIn('es', '1961-04-12');
    expect(order).toEqual(['date-day', 'date-month', 'date-year']);
    expect(screen.getByLabelText('Mes')).toHaveDisplayValue('abril');
    expect(screen.getByLabelText('Día')).toHaveValue('12');
    fireEvent.change(screen.getByLabelText('Día'), { target: { value: '31' } });
    expect(seen.at(-1), 'April has no 31st').toBe('');
    fireEvent.change(screen.getByLabelText('Día'), { target: { value: '30' } });
    expect(seen.at(-1)).toBe('1961-04-30');
    expect(field).toHaveAttribute('data-value', '1961-04-30');
  });

  it('Japanese: year, month, day', async () => {
    const { order } = await renderIn('ja', '1961-04-12');
    expect(order).toEqual(['date-year', 'date-month', 'date-day']);
    expect(screen.getByLabelText('月')).toHaveDisplayValue('4月');
  });

  it('joins only real dates with a four-digit year', () => {
    expect(joinDate({ day: '29', month: '2', year: '2024' })).toBe('2024-02-29');
    expect(joinDate({ day: '29', month: '2', year: '2023' })).toBe('');
    expect(joinDate({ day: '1', month: '1', year: '61' })).toBe('');
    expect(joinDate({ day: '', month: '1', year: '1961' })).toBe('');
  });
});
