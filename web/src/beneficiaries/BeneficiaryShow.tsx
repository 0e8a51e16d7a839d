import {
  Alert,
  Box,
  Card,
  CardContent,
  Chip,
  LinearProgress,
  Link as MuiLink,
  Skeleton,
  Stack,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useId, type ReactNode } from 'react';
import {
  DataTable,
  EditButton,
  ListBase,
  Pagination,
  Show,
  SimpleList,
  TopToolbar,
  useCanAccess,
  useDataProvider,
  useListContext,
  useLocaleState,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { EmptyState } from '../common/EmptyState';
import { WhenField } from '../common/fields';
import { formatCpf, formatDate, formatDateTime } from '../common/format';
import { ListError } from '../common/ListError';
import { NotFoundOrError, stayOnError } from '../common/NotFoundOrError';
import { useSmall } from '../common/useSmall';
import type { ConsoleDataProvider } from '../dataProvider';
import { StatusChip } from '../integration/PlaceAppCheckIns';
import type { BeneficiaryUsage } from '../types';
import { handler } from '../common/handler';

interface BeneficiaryRecord {
  id: string;
  cpf: string;
  code: string;
  name: string;
  email: string | null;
  phone: string | null;
  birthday: string | null;
  active: boolean;
  benefit_plan_code: string | null;
  /** 13 digits: the member number of the Wellhub-compatible access control (`gympass_id`). */
  member_number?: string;
}

const Title = () => {
  const record = useRecordContext<BeneficiaryRecord>();
  return <>{record?.name ?? ''}</>;
};

const Actions = () => (
  <TopToolbar>
    <EditButton />
  </TopToolbar>
);

const Section = ({ title, children }: { title: string; children: ReactNode }) => {
  const translate = useTranslate();
  const headingId = useId();
  return (
    <Card component="section" aria-labelledby={headingId} variant="outlined">
      <CardContent sx={{ pb: 1 }}>
        <Typography id={headingId} variant="h6" component="h3">
          {translate(title)}
        </Typography>
      </CardContent>
      {children}
    </Card>
  );
};

const Fact = ({ label, children }: { label: string; children: ReactNode }) => {
  const translate = useTranslate();
  return (
    <>
      <Typography component="dt" variant="body2" color="text.secondary">
        {translate(label)}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-word' }}>
        {children}
      </Typography>
    </>
  );
};

/** Who the beneficiary is: name, code, CPF (as the service shows it to the role), contact, plan. */
const Identity = () => {
  const beneficiary = useRecordContext<BeneficiaryRecord>();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  if (!beneficiary) return null;
  return (
    <Card variant="outlined">
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1, mb: 2 }}>
          <Typography variant="h5" component="h2" sx={{ mr: 1 }}>
            {beneficiary.name}
          </Typography>
          <Chip
            size="small"
            label={`${translate('app.beneficiaries.code')}: ${beneficiary.code}`}
            sx={{ fontFamily: 'monospace' }}
          />
          <Chip
            size="small"
            color={beneficiary.active ? 'success' : 'default'}
            variant={beneficiary.active ? 'filled' : 'outlined'}
            label={translate(beneficiary.active ? 'app.state.active' : 'app.state.inactive')}
          />
        </Stack>
        <Box
          component="dl"
          sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '180px 1fr' }, gap: 1, m: 0 }}
        >
          <Fact label="app.beneficiaries.cpf">
            <span style={{ fontFamily: 'monospace' }}>{formatCpf(beneficiary.cpf)}</span>
          </Fact>
          {beneficiary.member_number !== undefined && (
            <Fact label="app.beneficiaries.member_number">
              <span style={{ fontFamily: 'monospace' }}>{beneficiary.member_number}</span>
            </Fact>
          )}
          <Fact label="app.beneficiaries.benefit_plan">{beneficiary.benefit_plan_code ?? '—'}</Fact>
          <Fact label="app.beneficiaries.email">{beneficiary.email ?? '—'}</Fact>
          <Fact label="app.beneficiaries.phone">{beneficiary.phone ?? '—'}</Fact>
          <Fact label="app.beneficiaries.birthday">{formatDate(beneficiary.birthday, locale) || '—'}</Fact>
        </Box>
      </CardContent>
    </Card>
  );
};

function monthName(month: string, locale: string): string {
  const [year, number] = month.split('-').map(Number);
  return new Date(Date.UTC(year, number - 1, 15)).toLocaleDateString(locale, {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** This month's visits against the benefit plan's limit, counted as the check-in rule counts them. */
const UsageBody = ({ usage }: { usage: BeneficiaryUsage }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const limit = usage.monthly_visit_limit;
  const used = usage.visits_this_month;
  const reached = limit !== null && used >= limit;
  const share = limit ? Math.min(100, Math.round((used / limit) * 100)) : 0;
  const summary =
    limit === null
      ? translate('app.beneficiaries.usage_unlimited', {
          smart_count: used,
          month: monthName(usage.month, locale),
        })
      : translate('app.beneficiaries.usage_of_limit', {
          used,
          limit,
          month: monthName(usage.month, locale),
        });
  return (
    <CardContent sx={{ pt: 0 }}>
      <Typography variant="h4" component="p" sx={{ fontWeight: 500 }} aria-label={summary}>
        {limit === null ? used : `${used} / ${limit}`}
      </Typography>
      <Typography variant="body1" sx={{ mb: 1 }}>
        {summary}
      </Typography>
      {limit !== null && (
        <LinearProgress
          variant="determinate"
          value={share}
          color={reached ? 'error' : share >= 80 ? 'warning' : 'success'}
          aria-label={summary}
          sx={{ height: 10, borderRadius: 5, mb: 1.5 }}
        />
      )}
      {reached && (
        <Alert severity="error" sx={{ mb: 1.5 }}>
          {translate('app.beneficiaries.usage_reached')}
        </Alert>
      )}
      {limit !== null && !reached && (
        <Typography variant="body2" color="text.secondary">
          {translate('app.beneficiaries.usage_remaining', { smart_count: usage.remaining ?? 0 })}
        </Typography>
      )}
      <Typography variant="body2" color="text.secondary">
        {usage.benefit_plan_code
          ? translate('app.beneficiaries.usage_plan', {
              name: usage.benefit_plan_name ?? usage.benefit_plan_code,
              code: usage.benefit_plan_code,
              tier: usage.benefit_plan_tier ?? 0,
            })
          : translate('app.beneficiaries.usage_no_plan')}
      </Typography>
      {usage.benefit_plan_active === false && (
        <Alert severity="warning" sx={{ mt: 1 }}>
          {translate('app.beneficiaries.usage_plan_inactive')}
        </Alert>
      )}
      <Typography variant="body2" color="text.secondary">
        {usage.last_visit_at
          ? translate('app.beneficiaries.last_visit', { when: formatDateTime(usage.last_visit_at, locale) })
          : translate('app.beneficiaries.no_visit_yet')}
      </Typography>
    </CardContent>
  );
};

const Usage = () => {
  const beneficiary = useRecordContext<BeneficiaryRecord>();
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const code = beneficiary?.code;
  const { data, error, isPending, refetch } = useQuery({
    queryKey: ['beneficiary-usage', code],
    queryFn: () => dataProvider.beneficiaryUsage(code as string),
    enabled: Boolean(code),
  });
  return (
    <Section title="app.beneficiaries.usage_title">
      {error ? (
        <Alert
          severity="error"
          sx={{ m: 2 }}
          action={
            <MuiLink component="button" onClick={handler(() => refetch())}>
              {translate('app.action.retry')}
            </MuiLink>
          }
        >
          {translate('app.error.load_failed')} {translate(error.message, { _: error.message })}
        </Alert>
      ) : isPending ? (
        <CardContent sx={{ pt: 0 }} aria-busy>
          <Skeleton variant="text" width={120} height={48} />
          <Skeleton variant="rounded" height={10} />
          <Typography variant="caption" color="text.secondary">
            {translate('ra.page.loading')}
          </Typography>
        </CardContent>
      ) : (
        <UsageBody usage={data} />
      )}
    </Section>
  );
};

const PlaceLink = ({ id, name }: { id: string; name: string | null }) => (
  <MuiLink component={RouterLink} to={`/places/${encodeURIComponent(id)}/show`} underline="hover">
    {name ?? id}
  </MuiLink>
);

const Visits = () => {
  const { error } = useListContext();
  const small = useSmall();
  const [locale] = useLocaleState();
  if (error) return <ListError />;
  const empty = <EmptyState title="app.checkins.none" hint="app.beneficiaries.no_visits_hint" />;
  return (
    <>
      {small ? (
        <SimpleList
          linkType={false}
          empty={empty}
          primaryText={(record) => (
            <PlaceLink id={String(record.place_id)} name={record.place_name as string | null} />
          )}
          secondaryText={(record) => formatDateTime(record.created_at as string, locale)}
          tertiaryText={(record) => (record.plan_code as string | null) ?? ''}
        />
      ) : (
        <DataTable bulkActionButtons={false} rowClick={false} empty={empty}>
          <DataTable.Col source="created_at" label="app.checkins.when" disableSort>
            <WhenField source="created_at" />
          </DataTable.Col>
          <DataTable.Col
            source="place_name"
            label="app.checkins.place"
            disableSort
            render={(record) => <PlaceLink id={String(record.place_id)} name={record.place_name} />}
          />
          <DataTable.Col source="plan_code" label="app.checkins.plan" disableSort />
          <DataTable.Col
            source="custom_code"
            label="app.checkins.custom_code"
            disableSort
            render={(record) => (record.custom_code as string | null) ?? ''}
          />
        </DataTable>
      )}
      <Pagination rowsPerPageOptions={[]} />
    </>
  );
};

const CheckIns = () => {
  const { error } = useListContext();
  const small = useSmall();
  const [locale] = useLocaleState();
  if (error) return <ListError />;
  const empty = <EmptyState title="app.app_checkins.none" hint="app.beneficiaries.no_app_checkins_hint" />;
  return (
    <>
      {small ? (
        <SimpleList
          linkType={false}
          empty={empty}
          primaryText={(record) => (
            <PlaceLink id={String(record.place_id)} name={record.place_name as string} />
          )}
          secondaryText={(record) => formatDateTime(record.started_at as string, locale)}
          tertiaryText={(record) => <StatusChip status={String(record.status)} spaced />}
        />
      ) : (
        <DataTable bulkActionButtons={false} rowClick={false} empty={empty}>
          <DataTable.Col source="started_at" label="app.app_checkins.started_at" disableSort>
            <WhenField source="started_at" />
          </DataTable.Col>
          <DataTable.Col
            source="status"
            label="app.app_checkins.status_label"
            disableSort
            render={(record) => <StatusChip status={String(record.status)} />}
          />
          <DataTable.Col
            source="place_name"
            label="app.checkins.place"
            disableSort
            render={(record) => <PlaceLink id={String(record.place_id)} name={record.place_name} />}
          />
          <DataTable.Col source="validated_at" label="app.app_checkins.validated_at" disableSort>
            <WhenField source="validated_at" />
          </DataTable.Col>
        </DataTable>
      )}
      <Pagination rowsPerPageOptions={[]} />
    </>
  );
};

/** A beneficiary's page: who, how much of the month's limit is used, recent visits, check-ins made in the app. */
const BeneficiaryDetail = () => {
  const beneficiary = useRecordContext<BeneficiaryRecord>();
  if (!beneficiary) return null;
  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 }, maxWidth: 1000 }}>
      <Identity />
      <Usage />
      <Section title="app.beneficiaries.recent_visits">
        <ListBase
          resource="beneficiary-visits"
          filter={{ beneficiary: beneficiary.code }}
          perPage={10}
          disableSyncWithLocation
          storeKey={false}
          queryOptions={{ onError: () => undefined }}
        >
          <Visits />
        </ListBase>
      </Section>
      <Section title="app.beneficiaries.app_checkins">
        <ListBase
          resource="beneficiary-check-ins"
          filter={{ beneficiary: beneficiary.code }}
          perPage={10}
          disableSyncWithLocation
          storeKey={false}
          queryOptions={{ onError: () => undefined }}
        >
          <CheckIns />
        </ListBase>
      </Section>
    </Stack>
  );
};

export const BeneficiaryShow = () => {
  const { canAccess: canEdit } = useCanAccess({ resource: 'beneficiaries', action: 'edit' });
  return (
    <Show
      title={<Title />}
      actions={canEdit ? <Actions /> : false}
      {...stayOnError}
      error={<NotFoundOrError what="app.beneficiaries.one" />}
    >
      <BeneficiaryDetail />
    </Show>
  );
};
