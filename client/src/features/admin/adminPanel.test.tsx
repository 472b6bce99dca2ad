import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { english, signInAs } from '../../test/adminFixtures';
import { renderApp, stubFetch } from '../../test/renderApp';

const COMPANIES = [
  { _id: { $oid: 'c1' }, companyName: 'Acme Care', address: 'Main St 1' },
  { _id: { $oid: 'c2' }, companyName: 'Other Clinic', address: '' },
];

type Handler = Parameters<typeof stubFetch>[0][string];

async function openPanel(routes: Record<string, Handler> = {}) {
  signInAs(1);
  const fetch = stubFetch({
    '/api/auth/companies': () => ({ body: COMPANIES }),
    '/api/companyUser': () => ({ body: [COMPANIES[0]] }),
    ...routes,
  });
  const r = await renderApp('/adminPanel', { state: { userRole: 1 } });
  await screen.findByRole('button', { name: new RegExp(english('admin.createCompany')) });
  return { ...r, fetch };
}

const posts = (fetch: ReturnType<typeof stubFetch>, path: string) =>
  fetch.mock.calls.filter((c) => c[0] === path && c[1]?.method === 'POST').map((c) => JSON.parse(c[1]!.body as string));

const field = (dialog: HTMLElement, label: string) => within(dialog).getByLabelText(new RegExp(`^${english(label)}`));
const type = (el: HTMLElement, value: string) => fireEvent.change(el, { target: { value } });
const submit = (dialog: HTMLElement, label = 'admin.create') => fireEvent.click(within(dialog).getByRole('button', { name: english(label) }));
const open = (label: string) => {
  fireEvent.click(screen.getByRole('button', { name: new RegExp(english(label)) }));
  return screen.getByRole('dialog');
};

describe('admin panel (spec §2 "Login and admin")', () => {
  it('has a back button, the title, four large buttons and quick registration', async () => {
    await openPanel();
    expect(screen.getByRole('heading', { name: english('admin.title') })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Back/ })).toBeInTheDocument();
    for (const label of ['admin.createCompany', 'admin.createUser', 'admin.createDevice', 'admin.createAll', 'admin.quickRegistration'])
      expect(screen.getByRole('button', { name: new RegExp(english(label)) })).toBeInTheDocument();
  });

  it('a staff user gets the hub refusal, not the buttons', async () => {
    signInAs(2);
    stubFetch({ '/api/auth/companies': () => ({ status: 403, body: { error: 'forbidden' } }) });
    await renderApp('/adminPanel');
    expect(await screen.findByTestId('admin-refusal')).toHaveTextContent(english('admin.forbidden'));
    expect(screen.queryByRole('button', { name: new RegExp(english('admin.createCompany')) })).toBeNull();
  });
});

describe('create company', () => {
  it('sends the defaults #f5f5f5 and layout 2 and toasts companyCreated', async () => {
    const { fetch } = await openPanel({ '/api/auth/company/register': () => ({ status: 201, body: { _id: { $oid: 'c3' }, companyName: 'New Co' } }) });
    const dialog = open('admin.createCompany');
    type(field(dialog, 'branding.companyName'), 'New Co');
    type(field(dialog, 'branding.address'), 'Harbour 2');
    submit(dialog);
    expect(await screen.findByText(english('companyCreated'))).toBeInTheDocument();
    expect(posts(fetch, '/api/auth/company/register')).toEqual([{ companyName: 'New Co', address: 'Harbour 2', pageColor: '#f5f5f5', layoutNumber: 2 }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('a refusal toasts companyCreationFailed and shows the hub reason', async () => {
    await openPanel({ '/api/auth/company/register': () => ({ status: 409, body: { error: 'duplicateCompany' } }) });
    const dialog = open('admin.createCompany');
    type(field(dialog, 'branding.companyName'), 'Acme Care');
    submit(dialog);
    expect(await screen.findByText(english('companyCreationFailed'))).toBeInTheDocument();
    expect(within(dialog).getByTestId('hub-reason')).toHaveTextContent(english('duplicateCompany'));
  });

  it('stops the name at 25 characters with the limit message', async () => {
    await openPanel();
    const dialog = open('admin.createCompany');
    const name = field(dialog, 'branding.companyName') as HTMLInputElement;
    type(name, 'x'.repeat(26));
    expect(name.value).toHaveLength(25);
    expect(within(dialog).getByTestId('company-name-limit')).toHaveTextContent('Maximum 25 characters allowed');
  });
});

describe('create user', () => {
  const userRoutes = () => {
    const signup = vi.fn(() => ({ status: 201, body: { id: 'u9', email: 'n@x.io', role: 2, companyId: 'c2' } }));
    return { signup, routes: { '/api/auth/signup': signup } };
  };

  async function fill(email: string, password: string, repeat: string) {
    const { signup, routes } = userRoutes();
    const r = await openPanel(routes);
    const dialog = open('admin.createUser');
    type(field(dialog, 'admin.email'), email);
    type(field(dialog, 'admin.password'), password);
    type(field(dialog, 'admin.passwordRepeat'), repeat);
    return { ...r, dialog, signup };
  }

  for (const [label, email, password, repeat, key] of [
    ['empty e-mail', '', 'secret1', 'secret1', 'emptyEmail'],
    ['empty password', 'n@x.io', '', '', 'emptyEmail'],
    ['bad e-mail', 'n@x', 'secret1', 'secret1', 'incorrectEmail'],
    ['unmatched', 'n@x.io', 'secret1', 'secret2', 'passwordsUnmatch'],
    ['5 characters', 'n@x.io', '12345', '12345', 'shortPassword'],
  ] as const) {
    it(`${label}: toast ${key}, nothing sent`, async () => {
      const { dialog, signup } = await fill(email, password, repeat);
      submit(dialog);
      expect(await screen.findByText(english(key))).toBeInTheDocument();
      expect(signup).not.toHaveBeenCalled();
    });
  }

  it('6 characters: creates the user in the chosen company and toasts accountCreated', async () => {
    const { dialog, fetch } = await fill('n@x.io', '123456', '123456');
    fireEvent.change(within(dialog).getByLabelText(english('admin.company')), { target: { value: 'c2' } });
    submit(dialog);
    expect(await screen.findByText(english('accountCreated'))).toBeInTheDocument();
    expect(posts(fetch, '/api/auth/signup')).toEqual([{ email: 'n@x.io', password: '123456', passwordRepeat: '123456', company: 'c2' }]);
  });

  it('a refusal toasts failedAccount', async () => {
    await openPanel({ '/api/auth/signup': () => ({ status: 409, body: { error: 'duplicateEmail' } }) });
    const dialog = open('admin.createUser');
    type(field(dialog, 'admin.email'), 'n@x.io');
    type(field(dialog, 'admin.password'), '123456');
    type(field(dialog, 'admin.passwordRepeat'), '123456');
    submit(dialog);
    expect(await screen.findByText(english('failedAccount'))).toBeInTheDocument();
    expect(within(dialog).getByTestId('hub-reason')).toHaveTextContent(english('duplicateEmail'));
  });
});

describe('create device', () => {
  const REGISTERED = {
    id: 'd9',
    hardwareSerial: 'SH-9',
    deviceType: 'Sensing Horse',
    name: 'Horse 9',
    deviceSecret: null,
    members: [
      { hardwareSerial: 'SH-9-0', deviceSecret: 'secret-left-0123456789' },
      { hardwareSerial: 'SH-9-1', deviceSecret: 'secret-right-0123456789' },
    ],
  };

  it('asks for sub-devices only for the Sensing Horse, default 2', async () => {
    await openPanel();
    const dialog = open('admin.createDevice');
    const typeSelect = within(dialog).getByLabelText(english('admin.deviceType'));
    fireEvent.change(typeSelect, { target: { value: 'Mattress Mat IoT' } });
    expect(within(dialog).queryByLabelText(english('admin.numberOfSubdevices'))).toBeNull();
    fireEvent.change(typeSelect, { target: { value: 'Sensing Horse' } });
    expect(within(dialog).getByLabelText(english('admin.numberOfSubdevices'))).toHaveValue('2');
  });

  for (const [label, serial, name, subdevices] of [
    ['no serial', '', 'Horse', '2'],
    ['no name', 'SH-9', '', '2'],
    ['non-numeric sub-devices', 'SH-9', 'Horse', 'two'],
  ] as const) {
    it(`${label}: toast deviceParameters, nothing sent`, async () => {
      const register = vi.fn(() => ({ status: 201, body: REGISTERED }));
      await openPanel({ '/api/deviceandconfRegistration': register });
      const dialog = open('admin.createDevice');
      fireEvent.change(within(dialog).getByLabelText(english('admin.deviceType')), { target: { value: 'Sensing Horse' } });
      type(field(dialog, 'admin.serial'), serial);
      type(field(dialog, 'admin.deviceName'), name);
      type(within(dialog).getByLabelText(english('admin.numberOfSubdevices')), subdevices);
      submit(dialog);
      expect(await screen.findByText(english('deviceParameters'))).toBeInTheDocument();
      expect(register).not.toHaveBeenCalled();
    });
  }

  it('registers, toasts deviceCreated and shows each secret once with a warning and a copy button', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const { fetch } = await openPanel({ '/api/deviceandconfRegistration': () => ({ status: 201, body: REGISTERED }) });
    const dialog = open('admin.createDevice');
    fireEvent.change(within(dialog).getByLabelText(english('admin.deviceType')), { target: { value: 'Sensing Horse' } });
    type(field(dialog, 'admin.serial'), ' SH-9 ');
    type(field(dialog, 'admin.deviceName'), 'Horse 9');
    type(within(dialog).getByLabelText(english('admin.numberOfSubdevices')), '3');
    submit(dialog);
    expect(await screen.findByText(english('deviceCreated'))).toBeInTheDocument();
    expect(posts(fetch, '/api/deviceandconfRegistration')).toEqual([
      { hardwareSerial: 'SH-9', name: 'Horse 9', deviceType: 'Sensing Horse', numberOfSubdevices: 3, added_by: 'c1' },
    ]);
    expect(within(dialog).getByText(english('admin.secretWarning'))).toBeInTheDocument();
    expect(within(dialog).getByTestId('secret-SH-9-0')).toHaveTextContent('secret-left-0123456789');
    expect(within(dialog).getByTestId('secret-SH-9-1')).toHaveTextContent('secret-right-0123456789');
    fireEvent.click(within(dialog).getAllByRole('button', { name: english('admin.copy') })[1]);
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('secret-right-0123456789'));
    expect(await within(dialog).findByText(english('admin.copied'))).toBeInTheDocument();
    // Closing forgets it: the secret is not shown again.
    fireEvent.click(within(dialog).getByRole('button', { name: english('admin.done') }));
    expect(screen.queryByText('secret-left-0123456789')).toBeNull();
  });

  it('a refusal toasts failedToRegisterDevice', async () => {
    await openPanel({ '/api/deviceandconfRegistration': () => ({ status: 409, body: { error: 'duplicateSerial' } }) });
    const dialog = open('admin.createDevice');
    type(field(dialog, 'admin.serial'), 'MM-1');
    type(field(dialog, 'admin.deviceName'), 'Bed 1');
    submit(dialog);
    expect(await screen.findByText(english('failedToRegisterDevice'))).toBeInTheDocument();
    expect(within(dialog).getByTestId('hub-reason')).toHaveTextContent(english('duplicateSerial'));
  });
});

describe('create all and quick registration', () => {
  async function fillAll(routes: Record<string, Handler>) {
    const r = await openPanel(routes);
    const dialog = open('admin.createAll');
    type(field(dialog, 'branding.companyName'), 'Harbour Care');
    type(field(dialog, 'admin.email'), 'first@harbour.io');
    type(field(dialog, 'admin.password'), 'secret1');
    type(field(dialog, 'admin.passwordRepeat'), 'secret1');
    fireEvent.change(within(dialog).getByLabelText(english('admin.deviceType')), { target: { value: 'Mattress Mat IoT' } });
    type(field(dialog, 'admin.serial'), 'HC-1');
    type(field(dialog, 'admin.deviceName'), 'Bed 1');
    return { ...r, dialog };
  }

  it('create all sends company, user and device in one call: registrationsSuccess', async () => {
    const device = { id: 'd1', hardwareSerial: 'HC-1', deviceType: 'Mattress Mat IoT', name: 'Bed 1', deviceSecret: 'only-once-secret' };
    const { dialog, fetch } = await fillAll({ '/api/registerAll': () => ({ status: 201, body: { id: 'c9', device } }) });
    submit(dialog);
    expect(await screen.findByText(english('registrationsSuccess'))).toBeInTheDocument();
    expect(posts(fetch, '/api/registerAll')).toEqual([
      {
        company: { companyName: 'Harbour Care', address: '', pageColor: '#f5f5f5', layoutNumber: 2 },
        user: { email: 'first@harbour.io', password: 'secret1', passwordRepeat: 'secret1' },
        device: { hardwareSerial: 'HC-1', name: 'Bed 1', deviceType: 'Mattress Mat IoT' },
      },
    ]);
    expect(within(dialog).getByTestId('secret-HC-1')).toHaveTextContent('only-once-secret');
  });

  it('create all checks the user first and toasts failedToRegister on a refusal', async () => {
    const { dialog } = await fillAll({ '/api/registerAll': () => ({ status: 400, body: { error: 'invalidDeviceType' } }) });
    type(field(dialog, 'admin.passwordRepeat'), 'other1');
    submit(dialog);
    expect(await screen.findByText(english('passwordsUnmatch'))).toBeInTheDocument();
    type(field(dialog, 'admin.passwordRepeat'), 'secret1');
    submit(dialog);
    expect(await screen.findByText(english('failedToRegister'))).toBeInTheDocument();
  });

  it('quick registration shows the generated e-mail and 12-character password once', async () => {
    const answer = {
      email: 'admin.qr-1@quick-registration.invalid',
      password: 'Ab3dEf6hIj9L',
      companyId: 'c7',
      device: { id: 'd7', hardwareSerial: 'QR-1', deviceType: 'Mattress Mat IoT', name: 'QR-1', deviceSecret: 'qr-secret' },
    };
    const { fetch } = await openPanel({ '/api/quickRegistration': () => ({ status: 201, body: answer }) });
    const dialog = open('admin.quickRegistration');
    fireEvent.change(within(dialog).getByLabelText(english('admin.deviceType')), { target: { value: 'Mattress Mat IoT' } });
    type(field(dialog, 'admin.serial'), 'QR-1');
    submit(dialog, 'admin.register');
    expect(await within(dialog).findByTestId('quick-email')).toHaveTextContent(answer.email);
    expect(within(dialog).getByTestId('quick-password')).toHaveTextContent(answer.password);
    expect(within(dialog).getByText(english('admin.loginWarning'))).toBeInTheDocument();
    expect(posts(fetch, '/api/quickRegistration')).toEqual([{ hardwareSerial: 'QR-1', deviceType: 'Mattress Mat IoT' }]);
  });
});

describe('admin-panel card on the device grid', () => {
  const grid = () =>
    stubFetch({
      '/api/userDevices': () => ({ body: [{ _id: { $oid: 'a1' }, name: 'Bed A', bed: '1', room: '1', deviceType: 'Mattress Mat IoT' }] }),
      '/api/deviceConfCompany': () => ({ body: [] }),
      '/api/companyUser': () => ({ body: [COMPANIES[0]] }),
      '/api/auth/companies': () => ({ body: COMPANIES }),
    });

  it('is offered to administrators (role 1) and opens /adminPanel', async () => {
    signInAs(1, 'Any Company');
    grid();
    await renderApp('/devices');
    const card = await screen.findByTestId('admin-card');
    fireEvent.click(within(card).getByRole('button', { name: english('admin.title') }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/adminPanel'));
  });

  it('is not offered to staff (role 2), whatever the company', async () => {
    signInAs(2, 'Acme Care');
    grid();
    await renderApp('/devices');
    await screen.findAllByTestId('device-card');
    expect(screen.queryByTestId('admin-card')).toBeNull();
  });
});
