import { Box, Card, CardContent, Stack, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { useId, useState } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { serviceDay, serviceHour } from '../common/format';
import type { CheckInBucket } from '../types';

/** Colours of the refusal labels, stacked above the recorded visits: warm and distinct from the green. */
const REFUSAL_COLORS = ['#c62828', '#b45309', '#8e24aa', '#6d4c41', '#ad1457', '#455a64', '#e65100'];
const MAX_LABELS = REFUSAL_COLORS.length - 1;

/** The labels refused most in these buckets, the rest grouped as "other". */
function topLabels(buckets: CheckInBucket[]): string[] {
  const totals = new Map<string, number>();
  for (const bucket of buckets)
    for (const [label, count] of Object.entries(bucket.refusals))
      totals.set(label, (totals.get(label) ?? 0) + count);
  return [...totals.entries()].sort((a, b) => b[1] - a[1]).map(([label]) => label);
}

/**
 * Check-ins per hour over the last 24 hours or per day over 30 days: visits recorded (green) with the refusals
 * stacked on them by label. The same figures are written out under the chart for readers who do not see it.
 */
export const CheckInChart = ({
  hourly,
  daily,
  loading,
}: {
  hourly: CheckInBucket[] | undefined;
  daily: CheckInBucket[] | undefined;
  loading: boolean;
}) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const headingId = useId();
  const [range, setRange] = useState<'hours' | 'days'>('hours');
  const buckets = (range === 'hours' ? hourly : daily) ?? [];
  const labels = topLabels(buckets);
  const shown = labels.slice(0, MAX_LABELS);
  const other = labels.slice(MAX_LABELS);
  const refusalName = (label: string) => translate(`app.refusal.${label}`, { _: label });
  const series = [
    {
      id: 'recorded',
      label: translate('app.overview.recorded'),
      data: buckets.map((bucket) => bucket.recorded),
      stack: 'answers',
      color: '#2e7d32',
    },
    ...shown.map((label, index) => ({
      id: label,
      label: refusalName(label),
      data: buckets.map((bucket) => bucket.refusals[label] ?? 0),
      stack: 'answers',
      color: REFUSAL_COLORS[index],
    })),
    ...(other.length
      ? [
          {
            id: 'other',
            label: translate('app.overview.other_refusals'),
            data: buckets.map((bucket) =>
              other.reduce((sum, label) => sum + (bucket.refusals[label] ?? 0), 0),
            ),
            stack: 'answers',
            color: REFUSAL_COLORS[MAX_LABELS],
          },
        ]
      : []),
  ];
  const x = buckets.map((bucket) =>
    range === 'hours' ? serviceHour(bucket.start) : serviceDay(bucket.start, locale),
  );
  const recorded = buckets.reduce((sum, bucket) => sum + bucket.recorded, 0);
  const refused = buckets.reduce((sum, bucket) => sum + bucket.refused, 0);
  const empty = !loading && recorded + refused === 0;
  const summary = translate(
    range === 'hours' ? 'app.overview.chart_summary_hours' : 'app.overview.chart_summary_days',
    {
      recorded,
      refused,
    },
  );
  return (
    <Card component="section" aria-labelledby={headingId} variant="outlined">
      <CardContent>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1}
          sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}
        >
          <Typography id={headingId} variant="h6" component="h3">
            {translate('app.overview.checkins_title')}
          </Typography>
          <ToggleButtonGroup
            size="small"
            exclusive
            value={range}
            onChange={(_event, value: 'hours' | 'days' | null) => value && setRange(value)}
            aria-label={translate('app.overview.range')}
          >
            <ToggleButton value="hours">{translate('app.overview.last_24_hours')}</ToggleButton>
            <ToggleButton value="days">{translate('app.overview.last_30_days')}</ToggleButton>
          </ToggleButtonGroup>
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {loading ? translate('ra.page.loading') : summary}
        </Typography>
        <Box role="img" aria-label={summary} sx={{ mt: 1 }}>
          <BarChart
            loading={loading}
            height={280}
            series={empty ? [] : series}
            xAxis={[{ data: x, scaleType: 'band', tickLabelStyle: { fontSize: 11 } }]}
            yAxis={[{ tickMinStep: 1, width: 40 }]}
            margin={{ left: 0, right: 8, top: 8, bottom: 0 }}
            slotProps={{ legend: { position: { vertical: 'bottom', horizontal: 'center' } } }}
            localeText={{
              loading: translate('ra.page.loading'),
              noData: translate(
                range === 'hours' ? 'app.overview.no_checkins_hours' : 'app.overview.no_checkins_days',
              ),
            }}
          />
        </Box>
        {!loading && refused > 0 && (
          <Box sx={{ mt: 1 }}>
            <Typography variant="subtitle2" component="h4">
              {translate('app.overview.refusals_by_label')}
            </Typography>
            <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
              {labels.map((label) => (
                <Typography component="li" variant="body2" key={label}>
                  {refusalName(label)} <code>{label}</code>:{' '}
                  {buckets.reduce((sum, bucket) => sum + (bucket.refusals[label] ?? 0), 0)}
                </Typography>
              ))}
            </Box>
          </Box>
        )}
      </CardContent>
    </Card>
  );
};
