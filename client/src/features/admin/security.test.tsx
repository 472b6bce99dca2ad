import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { english, signInAs } from '../../test/adminFixtures';
import { renderApp, stubFetch } from '../../test/renderApp';
import { pageCount } from './AuditLogPage';

const COMPANIES = [{ _id: { $oid: 'c1' }, companyName: 'Acme Care', address: 'Main St 1' }];
const DEVICES = [
  { _id: { $oid: 'd1' }, name: 'Bed 1', deviceType: 'Mattress Mat IoT', hardwareSerial: 'MAT-1', system: { devices: [] } },
  { _id: { $oid: 'h1' }, name: 'Horse', deviceType: 'Sensing Horse', hardwareSerial: 'HORSE-1', system: { devices: ['h1a', 'h1b'] } },
];

describe('Log out on every screen (issue 22)', () => {
  for (const path of ['/adminPanel', '/adminPanel/auditLog', '/brandingOptions']) {
    it(`${path} offers Log out`, async () => {
      signInAs(1);
      stubFetch({
        '/api/auth/companies': () => ({ body: COMPANIES }),
        '/api/companyUser': () => ({ body: COMPANIES }),
        '/api/userDevices': () => ({ body: DEVICES }),
        '/api/auditLog/1': () => ({ body: { entries: [], page: 1, perPage: 20, total: 0 } }),
      });
      await renderApp(path);
      expect(await screen.findByRole('button', { name: english('nav.logout') })).toBeInTheDocument();
    });
  }
});

describe('rotate a device secret (issue 14 §5)', () => {
  it('offers the devices that connect, posts the rotation and shows the new secret once with a copy button', async () => {
    signInAs(1);
    const fetch = stubFetch({
      '/api/auth/companies': () => ({ body: COMPANIES }),
      '/api/companyUser': () => ({ body: COMPANIES }),
      '/api/userDevices': () => ({ body: DEVICES }),
      '/api/device/d1/secret': () => ({
        body: { id: 'd1', hardwareSerial: 'MAT-1', deviceType: 'Mattress Mat IoT', name: 'Bed 1', deviceSecret: 'NEW-SECRET-123', members: [] },
      }),
    });
    await renderApp('/adminPanel');
    fireEvent.click(await screen.findByRole('button', { name: english('admin.rotateSecret') }));
    const dialog = screen.getByRole('dialog');
    const select = await within(dialog).findByTestId('rotate-device');
    await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(1));
    expect(within(select).getByRole('option')).toHaveTextContent('Bed 1 (MAT-1)');
    expect(within(dialog).getByText(english('admin.rotateWarning'))).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: english('admin.rotate') }));
    // The first press only asks, naming the device.
    expect(await within(dialog).findByTestId('rotate-confirm')).toHaveTextContent('Rotate the secret of Bed 1 (MAT-1)?');
    expect(fetch.mock.calls.filter((c) => c[0] === '/api/device/d1/secret')).toHaveLength(0);
    fireEvent.click(within(dialog).getByTestId('rotate-cancel'));
    expect(within(dialog).queryByTestId('rotate-confirm')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: english('admin.rotate') }));
    fireEvent.click(await within(dialog).findByRole('button', { name: english('admin.rotateConfirmButton') }));
    expect(await within(dialog).findByTestId('secret-MAT-1')).toHaveTextContent('NEW-SECRET-123');
    expect(within(dialog).getByRole('button', { name: english('admin.copy') })).toBeInTheDocument();
    expect(within(dialog).getByRole('alert')).toHaveTextContent(english('admin.secretWarning'));
    const posts = fetch.mock.calls.filter((c) => c[0] === '/api/device/d1/secret');
    expect(posts).toHaveLength(1);
    expect(posts[0][1]?.method).toBe('POST');
  });

  it("shows the hub's refusal", async () => {
    signInAs(1);
    stubFetch({
      '/api/auth/companies': () => ({ body: COMPANIES }),
      '/api/companyUser': () => ({ body: COMPANIES }),
      '/api/userDevices': () => ({ body: DEVICES }),
      '/api/device/d1/secret': () => ({ status: 403, body: { error: 'forbidden', message: 'only an administrator may do this' } }),
    });
    await renderApp('/adminPanel');
    fireEvent.click(await screen.findByRole('button', { name: english('admin.rotateSecret') }));
    const dialog = screen.getByRole('dialog');
    await waitFor(() => expect(within(dialog).getAllByRole('option')).toHaveLength(1));
    fireEvent.click(within(dialog).getByRole('button', { name: english('admin.rotate') }));
    fireEvent.click(await within(dialog).findByRole('button', { name: english('admin.rotateConfirmButton') }));
    expect(await within(dialog).findByTestId('hub-reason')).toHaveTextContent(english('forbidden'));
    expect(within(dialog).queryByTestId('device-secrets')).toBeNull();
  });
});

const entry = (i: number, action: string) => ({
  id: `e${i}`,
  at: Date.UTC(2025, 0, 2, 10, i),
  userId: 'u1',
  userEmail: 'admin@example.com',
  action,
  entityType: 'device',
  entityId: `d${i}`,
  companyId: 'c1',
  summary: `change ${i}`,
});

describe('audit log page (issue 14 §5)', () => {
  it('lists time, user, translated action, entity and change, and pages through the log', async () => {
    signInAs(1);
    const fetch = stubFetch({
      '/api/auditLog/1': () => ({ body: { entries: [entry(1, 'device.rotateSecret'), entry(2, 'company.variants')], page: 1, perPage: 2, total: 3 } }),
      '/api/auditLog/2': () => ({ body: { entries: [entry(3, 'user.create')], page: 2, perPage: 2, total: 3 } }),
    });
    await renderApp('/adminPanel/auditLog');
    expect(await screen.findByRole('heading', { name: english('admin.auditLog') })).toBeInTheDocument();
    const rows = await screen.findAllByTestId('audit-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent(english('admin.auditActions.device.rotateSecret'));
    expect(rows[0]).toHaveTextContent('admin@example.com');
    expect(rows[0]).toHaveTextContent('d1');
    expect(rows[0]).toHaveTextContent('change 1');
    expect(rows[1]).toHaveTextContent(english('admin.auditActions.company.variants'));
    expect(screen.getByTestId('audit-page')).toHaveTextContent('Page 1 of 2');
    expect(screen.getByRole('button', { name: english('admin.auditPrevious') })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: english('admin.auditNext') }));
    await waitFor(() => expect(screen.getByTestId('audit-page')).toHaveTextContent('Page 2 of 2'));
    expect(screen.getAllByTestId('audit-row')[0]).toHaveTextContent(english('admin.auditActions.user.create'));
    expect(screen.getByRole('button', { name: english('admin.auditNext') })).toBeDisabled();
    expect(fetch.mock.calls.map((c) => c[0])).toContain('/api/auditLog/2');
  });

  it('staff get the refusal', async () => {
    signInAs(2);
    stubFetch({ '/api/auditLog/1': () => ({ status: 403, body: { error: 'forbidden' } }) });
    await renderApp('/adminPanel/auditLog');
    expect(await screen.findByTestId('audit-refusal')).toHaveTextContent(english('admin.forbidden'));
  });

  it('counts pages, at least one', () => {
    expect(pageCount(0, 20)).toBe(1);
    expect(pageCount(20, 20)).toBe(1);
    expect(pageCount(21, 20)).toBe(2);
  });
});
