import { Admin, CustomRoutes, Resource } from 'react-admin';
import { Route } from 'react-router-dom';
import accounts from './accounts';
import audit from './audit';
import { authProvider } from './authProvider';
import beneficiaries from './beneficiaries';
import { BeneficiaryImport } from './beneficiaries/BeneficiaryImport';
import benefitPlans from './benefitPlans';
import { dataProvider } from './dataProvider';
import deliveries from './deliveries';
import { i18nProvider } from './i18n/i18nProvider';
import { Layout } from './layout/Layout';
import { Login } from './layout/Login';
import { Overview } from './overview/Overview';
import { SetPassword } from './layout/SetPassword';
import { theme } from './layout/themes';
import partners from './partners';
import places from './places';
import visits from './visits';

export const App = () => (
  <Admin
    title="app.name"
    dataProvider={dataProvider}
    authProvider={authProvider}
    i18nProvider={i18nProvider}
    loginPage={Login}
    layout={Layout}
    dashboard={Overview}
    theme={theme}
    disableTelemetry
    requireAuth
  >
    <CustomRoutes noLayout>
      <Route path="/set-password/:token" element={<SetPassword />} />
    </CustomRoutes>
    <Resource name="places" {...places} />
    <Resource name="partners" {...partners} />
    <Resource name="benefit-plans" {...benefitPlans} />
    <Resource name="beneficiaries" {...beneficiaries}>
      <Route path="import" element={<BeneficiaryImport />} />
    </Resource>
    <Resource name="visits" {...visits} />
    <Resource name="deliveries" {...deliveries} />
    <Resource name="accounts" {...accounts} />
    <Resource name="audit" {...audit} />
  </Admin>
);
