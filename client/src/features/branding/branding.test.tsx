import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { english, pngFile, signInAs } from '../../test/adminFixtures';
import { renderApp, stubFetch } from '../../test/renderApp';
import { LOGO_ACCEPT, logoFileError, MAX_ADDRESS, MAX_COMPANY_NAME, MAX_LOGO_BYTES } from '../../lib/companyLimits';
import { hasImageMagic } from '../../lib/logoFile';

const TINY_PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const COMPANY = { _id: { $oid: 'c1' }, companyName: 'Acme Care', address: 'Main St 1', location: 'Main St 1', logo: '' };

async function openBranding(company: Record<string, unknown> = COMPANY, put: () => { status?: number; body: unknown } = () => ({ body: COMPANY })) {
  signInAs(1);
  const fetch = stubFetch({
    '/api/companyUser': (init) => (init?.method === 'PUT' ? put() : { body: [company] }),
    '/api/userDevices': () => ({ body: [] }),
    '/api/deviceConfCompany': () => ({ body: [] }),
  });
  const r = await renderApp('/brandingOptions');
  await screen.findByTestId('branding-form');
  return { ...r, fetch };
}

const logoInput = () => screen.getByTestId('logo-input') as HTMLInputElement;
const choose = (file: File) => fireEvent.change(logoInput(), { target: { files: [file] } });
const state = () => screen.getByTestId('logo-field').getAttribute('data-state');

describe('logo limits (spec §5)', () => {
  it('1 MB = 1048576 bytes is accepted, 1048577 is too large', () => {
    expect(MAX_LOGO_BYTES).toBe(1048576);
    expect(logoFileError({ name: 'a.png', type: 'image/png', size: 1048576 })).toBeNull();
    expect(logoFileError({ name: 'a.png', type: 'image/png', size: 1048577 })).toBe('logoTooLarge');
  });

  it('PNG, JPG and JPEG only', () => {
    expect(logoFileError({ name: 'a.PNG', type: 'image/png', size: 10 })).toBeNull();
    expect(logoFileError({ name: 'a.jpg', type: 'image/jpeg', size: 10 })).toBeNull();
    expect(logoFileError({ name: 'a.jpeg', type: 'image/jpeg', size: 10 })).toBeNull();
    expect(logoFileError({ name: 'a.gif', type: 'image/gif', size: 10 })).toBe('logoNotImage');
    expect(logoFileError({ name: 'a.txt', type: 'text/plain', size: 10 })).toBe('logoNotImage');
    expect(logoFileError({ name: 'a.png', type: 'text/plain', size: 10 })).toBe('logoNotImage');
    expect(LOGO_ACCEPT).toContain('image/png');
  });

  it('reads the real first bytes: PNG and JPEG magic only', () => {
    expect(hasImageMagic([0x89, 0x50, 0x4e, 0x47, 0x0d])).toBe(true);
    expect(hasImageMagic([0xff, 0xd8, 0xff, 0xe0])).toBe(true);
    expect(hasImageMagic([0x47, 0x49, 0x46, 0x38])).toBe(false);
    expect(hasImageMagic([])).toBe(false);
  });
});

describe('branding page (spec §4 "Logo form")', () => {
  it('empty → loading text while reading → preview; Delete empties it', async () => {
    await openBranding();
    expect(state()).toBe('empty');
    choose(pngFile(MAX_LOGO_BYTES));
    expect(state()).toBe('loading');
    expect(screen.getByText(english('branding.loading'))).toBeInTheDocument();
    await waitFor(() => expect(state()).toBe('preview'));
    expect(screen.getByTestId('logo-preview').getAttribute('src')).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    fireEvent.click(screen.getByRole('button', { name: english('branding.deleteLogo') }));
    expect(state()).toBe('empty');
  });

  it('1048577 bytes is refused with the size message and the logo stays', async () => {
    await openBranding({ ...COMPANY, logo: TINY_PNG });
    expect(state()).toBe('preview');
    choose(pngFile(MAX_LOGO_BYTES + 1));
    expect(screen.getByTestId('logo-error')).toHaveTextContent('File size is too large (maximum 1 MB).');
    expect(screen.getByTestId('logo-preview')).toHaveAttribute('src', TINY_PNG);
  });

  it('a non-image is refused, by type and by content', async () => {
    await openBranding();
    choose(new File(['hello'], 'notes.txt', { type: 'text/plain' }));
    expect(screen.getByTestId('logo-error')).toHaveTextContent('The file is not an image.');
    choose(new File(['hello, not a png'], 'fake.png', { type: 'image/png' }));
    await waitFor(() => expect(screen.getByTestId('logo-error')).toHaveTextContent('The file is not an image.'));
    expect(state()).toBe('empty');
  });

  it('Edit replaces the logo', async () => {
    await openBranding({ ...COMPANY, logo: TINY_PNG });
    expect(screen.getByRole('button', { name: english('branding.editLogo') })).toBeInTheDocument();
    choose(pngFile(64, 'other.png'));
    await waitFor(() => expect(screen.getByTestId('logo-preview').getAttribute('src')).not.toBe(TINY_PNG));
  });

  it('company name stops at 25 with the message at the limit, not before', async () => {
    await openBranding();
    const name = screen.getByLabelText(english('branding.companyName')) as HTMLInputElement;
    fireEvent.change(name, { target: { value: 'x'.repeat(MAX_COMPANY_NAME - 1) } });
    expect(screen.queryByTestId('company-name-limit')).toBeNull();
    fireEvent.change(name, { target: { value: 'x'.repeat(MAX_COMPANY_NAME) } });
    expect(screen.getByTestId('company-name-limit')).toHaveTextContent('Maximum 25 characters allowed');
    fireEvent.change(name, { target: { value: 'x'.repeat(MAX_COMPANY_NAME + 1) } });
    expect(name.value).toHaveLength(25);
    expect(name).toHaveAttribute('maxLength', '25');
  });

  it('address stops at 200', async () => {
    await openBranding();
    const address = screen.getByLabelText(english('branding.address')) as HTMLTextAreaElement;
    fireEvent.change(address, { target: { value: 'a'.repeat(MAX_ADDRESS) } });
    expect(address.value).toHaveLength(200);
    fireEvent.change(address, { target: { value: 'a'.repeat(MAX_ADDRESS + 1) } });
    expect(address.value).toHaveLength(200);
  });

  it('Save sends name, address and logo, toasts companyUpdated, goes to /devices and shows the brand in the top bar', async () => {
    const saved = { ...COMPANY, companyName: 'Acme Renamed', logo: TINY_PNG };
    const { fetch } = await openBranding(COMPANY, () => ({ body: saved }));
    fireEvent.change(screen.getByLabelText(english('branding.companyName')), { target: { value: 'Acme Renamed' } });
    choose(pngFile(100));
    await waitFor(() => expect(state()).toBe('preview'));
    fireEvent.click(screen.getByRole('button', { name: english('branding.save') }));
    expect(await screen.findByText(english('companyUpdated'))).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/devices'));
    const put = fetch.mock.calls.find((c) => c[0] === '/api/companyUser' && c[1]?.method === 'PUT');
    const body = JSON.parse(put![1]!.body as string);
    expect(body).toMatchObject({ companyName: 'Acme Renamed', address: 'Main St 1' });
    expect(body.logo).toMatch(/^data:image\/png;base64,/);
    const brand = screen.getByTestId('company-brand');
    expect(brand).toHaveTextContent('Acme Renamed');
    expect(within(brand).getByTestId('company-brand-logo')).toHaveAttribute('src', TINY_PNG);
  });

  it('a refused save toasts failedUpdateCompanySettings and stays', async () => {
    await openBranding(COMPANY, () => ({ status: 403, body: { error: 'forbidden' } }));
    fireEvent.click(screen.getByRole('button', { name: english('branding.save') }));
    expect(await screen.findByText(english('failedUpdateCompanySettings'))).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/brandingOptions');
  });
});
