// The cross-feature import rule, through ESLint's RuleTester.
import { RuleTester } from 'eslint';
import { afterAll, describe, it } from 'vitest';
// @ts-expect-error the rule is plain JavaScript without type declarations
import { noCrossFeatureImports } from './noCrossFeatureImports.js';

RuleTester.afterAll = afterAll;
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({ languageOptions: { ecmaVersion: 2022, sourceType: 'module' } });
const compose = [{ compose: { clinical: ['capture'] } }];

tester.run('no-cross-feature-imports', noCrossFeatureImports, {
  valid: [
    { filename: '/app/src/features/devices/DevicesPage.tsx', code: "import { oidOf } from '../../lib/api';" },
    { filename: '/app/src/features/device-page/pages/MatPage.tsx', code: "import { HeatMap } from '../HeatMap';" },
    { filename: '/app/src/lib/deviceRoute.ts', code: "import { x } from '../features/devices';" },
    { filename: '/app/src/features/clinical/ClinicalWorkspace.tsx', code: "import { CaptureControls } from '../capture';", options: compose },
    { filename: '/app/src/features/clinical/ClinicalWorkspace.tsx', code: "import { CaptureControls } from '../capture/index';", options: compose },
    { filename: '/app/src/features/devices/DevicesPage.tsx', code: "import React from 'react';" },
  ],
  invalid: [
    {
      filename: '/app/src/features/device-settings/DeviceSettingsPage.tsx',
      code: "import { deviceFromState } from '../device-page/DevicePage';",
      errors: [{ messageId: 'crossFeature' }],
    },
    {
      filename: '/app/src/features/device-page/pages/MatPage.tsx',
      code: "import { PatientPanel } from '../../patients';",
      errors: [{ messageId: 'crossFeature' }],
    },
    {
      filename: '/app/src/features/devices/DevicesPage.tsx',
      code: "export { x } from '../admin';",
      errors: [{ messageId: 'crossFeature' }],
    },
    {
      filename: '/app/src/features/clinical/ClinicalWorkspace.tsx',
      code: "import { useCapture } from '../capture/useCapture';",
      options: compose,
      errors: [{ messageId: 'deepImport' }],
    },
    {
      filename: '/app/src/features/capture/CaptureControls.tsx',
      code: "import { ClinicalWorkspace } from '../clinical';",
      options: compose,
      errors: [{ messageId: 'crossFeature' }],
    },
  ],
});
