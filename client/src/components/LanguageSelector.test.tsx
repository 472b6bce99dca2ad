import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../test/renderApp';

describe('language selector', () => {
  it('offers the eight languages and switching stores preferredLanguage', async () => {
    await renderApp('/login');
    const select = screen.getByLabelText('Language') as HTMLSelectElement;
    expect([...select.options].map((o) => o.value)).toEqual(['es', 'el', 'en', 'fr', 'it', 'nl', 'ru', 'ja']);
    fireEvent.change(select, { target: { value: 'es' } });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Iniciar sesión' })).toBeInTheDocument());
    expect(localStorage.getItem('preferredLanguage')).toBe('es');
  });
});
