import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { companyVariantsAtom, type CompanyVariants } from '../../lib/companyVariants';
import { renderApp, stubFetch } from '../../test/renderApp';

const OFF: CompanyVariants = { hideCentreOfPressure: false, fitness: false, seatingLabels: false };

function signIn(role: 1 | 2) {
  localStorage.setItem('user', 'T0K');
  localStorage.setItem('userId', 'u1');
  localStorage.setItem('companyId', 'c1');
  localStorage.setItem('company', 'Acme Care');
  localStorage.setItem('role', String(role));
}

/** The devices page with one seating device, the hub answering `variants` (and PUTs with `put`). */
function hub(variants: CompanyVariants, put?: (body: CompanyVariants) => { status?: number; body: unknown }) {
  return stubFetch({
    '/api/userDevices': () => ({
      body: [{ _id: { $oid: 'd1' }, name: 'Chair 301', bed: 'Chair A', deviceType: 'Seating Mat IoT', company: 'c1' }],
    }),
    '/api/deviceConfCompany': () => ({ body: [] }),
    '/api/companyUser': () => ({ body: [{ _id: { $oid: 'c1' }, companyName: 'Acme Care', address: '', logo: '' }] }),
    '/api/companyVariants': (init) =>
      init?.method === 'PUT' ? put!(JSON.parse(String(init.body)) as CompanyVariants) : { body: variants },
  });
}

describe('the seating-labels variant on device cards (spec §2)', () => {
  it("shows 'Sit' before the bed label and no company line", async () => {
    hub({ ...OFF, seatingLabels: true });
    signIn(2);
    await renderApp('/devices');
    const card = await screen.findByTestId('device-card');
    await waitFor(() => expect(within(card).getByText('Sit')).toBeInTheDocument());
    expect(within(card).getByText('Chair A')).toBeInTheDocument();
    expect(within(card).queryByText('Company')).toBeNull();
    expect(within(card).queryByText('Acme Care')).toBeNull();
  });

  it('without the variant the card shows the company line and no Sit', async () => {
    hub(OFF);
    signIn(2);
    await renderApp('/devices');
    const card = await screen.findByTestId('device-card');
    expect(within(card).getByText('Acme Care')).toBeInTheDocument();
    expect(within(card).getByText('Company')).toBeInTheDocument();
    expect(within(card).queryByText('Sit')).toBeNull();
  });

  it("is translated: 'Asiento' in Spanish", async () => {
    hub({ ...OFF, seatingLabels: true });
    signIn(2);
    await renderApp('/devices', { language: 'es' });
    const card = await screen.findByTestId('device-card');
    await waitFor(() => expect(within(card).getByText('Asiento')).toBeInTheDocument());
  });
});

describe('CompanyVariantsSection (administrators switch the variants, on /brandingOptions)', () => {
  it('renders nothing for staff', async () => {
    hub(OFF);
    signIn(2);
    await renderApp('/brandingOptions');
    await screen.findByTestId('branding-form');
    expect(screen.queryByTestId('company-variants')).toBeNull();
  });

  it('shows the stored setting; Save is enabled only after a change', async () => {
    hub({ ...OFF, fitness: true });
    signIn(1);
    await renderApp('/brandingOptions');
    const section = await screen.findByTestId('company-variants');
    const fitness = within(section).getByRole('checkbox', { name: /Fitness units/ });
    await waitFor(() => expect(fitness).toBeChecked());
    expect(within(section).getByRole('checkbox', { name: /Hide the centre of pressure/ })).not.toBeChecked();
    expect(within(section).getByRole('checkbox', { name: /Seating labels/ })).not.toBeChecked();
    const save = within(section).getByRole('button', { name: 'Save variants' });
    expect(save).toBeDisabled();
    fireEvent.click(fitness);
    expect(save).toBeEnabled();
    fireEvent.click(fitness);
    expect(save).toBeDisabled();
  });

  it('saves the whole setting, applies it at once and confirms', async () => {
    const sent: CompanyVariants[] = [];
    hub(OFF, (body) => {
      sent.push(body);
      return { body };
    });
    signIn(1);
    const { store } = await renderApp('/brandingOptions');
    const section = await screen.findByTestId('company-variants');
    await userEvent.click(within(section).getByRole('checkbox', { name: /Seating labels/ }));
    await userEvent.click(within(section).getByRole('checkbox', { name: /Hide the centre of pressure/ }));
    await userEvent.click(within(section).getByRole('button', { name: 'Save variants' }));
    await screen.findByText('Company variants saved.');
    expect(sent).toEqual([{ hideCentreOfPressure: true, fitness: false, seatingLabels: true }]);
    expect(store.get(companyVariantsAtom)).toEqual({ hideCentreOfPressure: true, fitness: false, seatingLabels: true });
    expect(within(section).getByRole('button', { name: 'Save variants' })).toBeDisabled();
  });

  it("shows the hub's refusal and keeps the stored setting", async () => {
    hub(OFF, () => ({ status: 403, body: { error: 'forbidden' } }));
    signIn(1);
    const { store } = await renderApp('/brandingOptions');
    const section = await screen.findByTestId('company-variants');
    await userEvent.click(within(section).getByRole('checkbox', { name: /Fitness units/ }));
    await userEvent.click(within(section).getByRole('button', { name: 'Save variants' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your role may not do this. Ask an administrator.');
    expect(store.get(companyVariantsAtom)).toEqual(OFF);
    expect(within(section).getByRole('checkbox', { name: /Fitness units/ })).toBeChecked();
  });

  it('a failure that does not say why shows variants.saveFailed', async () => {
    hub(OFF, () => ({ status: 500, body: { error: 'internalError' } }));
    signIn(1);
    await renderApp('/brandingOptions');
    const section = await screen.findByTestId('company-variants');
    await userEvent.click(within(section).getByRole('checkbox', { name: /Fitness units/ }));
    await userEvent.click(within(section).getByRole('button', { name: 'Save variants' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The company variants could not be saved.');
  });
});
