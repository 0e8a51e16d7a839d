import DeleteIcon from '@mui/icons-material/Delete';
import {
  Box,
  Button,
  Card,
  CardContent,
  IconButton,
  List,
  ListItem,
  ListItemText,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useState, type FormEvent } from 'react';
import {
  useCanAccess,
  useDataProvider,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
} from 'react-admin';
import { EmptyState } from '../common/EmptyState';
import { SafeConfirm } from '../common/SafeConfirm';
import type { ConsoleDataProvider } from '../dataProvider';
import { useSmall } from '../common/useSmall';
import type { Place, Plan } from '../types';

const AddPlan = ({ place }: { place: Place }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [name, setName] = useState('');
  const [tier, setTier] = useState('1');
  const [code, setCode] = useState('');
  const [reference, setReference] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await dataProvider.addPlan(place.id, {
        name: name.trim(),
        tier: Number(tier),
        ...(code.trim() && { code: code.trim().toUpperCase() }),
        ...(reference.trim() && { externalReference: reference.trim() }),
      });
      notify('app.plans.added', { type: 'success' });
      setName('');
      setCode('');
      setReference('');
      refresh();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box component="form" onSubmit={submit} aria-label={translate('app.plans.add')} sx={{ mt: 2 }}>
      <Typography variant="subtitle1" component="h4" sx={{ mb: 1 }}>
        {translate('app.plans.add')}
      </Typography>
      <Box
        sx={{
          display: 'grid',
          gap: 1.5,
          alignItems: 'center',
          gridTemplateColumns: { xs: '1fr', md: '2fr 110px 170px 2fr auto' },
        }}
      >
        <TextField
          label={translate('app.plans.name')}
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          size="small"
        />
        <TextField
          label={translate('app.plans.tier')}
          type="number"
          value={tier}
          onChange={(e) => setTier(e.target.value)}
          required
          size="small"
          slotProps={{ htmlInput: { min: 0 } }}
        />
        <TextField
          label={translate('app.plans.code_optional')}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          size="small"
        />
        <TextField
          label={translate('app.plans.external_reference')}
          value={reference}
          onChange={(e) => setReference(e.target.value)}
          size="small"
        />
        <Button type="submit" variant="contained" disabled={busy || !name.trim() || tier === ''}>
          {translate('ra.action.add')}
        </Button>
      </Box>
    </Box>
  );
};

/** The gym's plans (what a check-in's service_provider_plan_code names); operators add and remove them. */
export const PlacePlans = () => {
  const place = useRecordContext<Place>();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const small = useSmall();
  const { canAccess: canChange } = useCanAccess({ resource: 'place-plans', action: 'create' });
  const [removing, setRemoving] = useState<Plan | null>(null);
  if (!place) return null;
  const plans = place.plans ?? [];
  const withProductIds = plans.some((plan) => plan.product_id !== undefined);

  const remove = async () => {
    if (!removing) return;
    try {
      await dataProvider.removePlan(place.id, removing.code);
      notify('app.plans.removed', { type: 'success' });
      refresh();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setRemoving(null);
    }
  };

  return (
    <Card variant="outlined" sx={{ maxWidth: 960 }}>
      <CardContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate('app.plans.intro')}
        </Typography>
        {plans.length === 0 ? (
          <EmptyState title="app.plans.none" hint="app.plans.none_hint" />
        ) : small ? (
          <List dense aria-label={translate('app.places.tabs.plans')}>
            {plans.map((plan) => (
              <ListItem
                key={plan.code}
                divider
                secondaryAction={
                  canChange && (
                    <IconButton
                      edge="end"
                      aria-label={translate('app.plans.remove_named', { name: plan.name })}
                      onClick={() => setRemoving(plan)}
                    >
                      <DeleteIcon fontSize="small" />
                    </IconButton>
                  )
                }
              >
                <ListItemText
                  primary={plan.name}
                  secondary={[
                    `${translate('app.plans.code')} ${plan.code}`,
                    `${translate('app.plans.tier')} ${plan.tier}`,
                    plan.product_id !== undefined
                      ? `${translate('app.plans.product_id')} ${plan.product_id}`
                      : null,
                    plan.externalReference,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                />
              </ListItem>
            ))}
          </List>
        ) : (
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small" aria-label={translate('app.places.tabs.plans')}>
              <TableHead>
                <TableRow>
                  <TableCell>{translate('app.plans.name')}</TableCell>
                  <TableCell>{translate('app.plans.code')}</TableCell>
                  <TableCell align="right">{translate('app.plans.tier')}</TableCell>
                  {withProductIds && <TableCell align="right">{translate('app.plans.product_id')}</TableCell>}
                  <TableCell>{translate('app.plans.external_reference')}</TableCell>
                  {canChange && <TableCell />}
                </TableRow>
              </TableHead>
              <TableBody>
                {plans.map((plan) => (
                  <TableRow key={plan.code}>
                    <TableCell>{plan.name}</TableCell>
                    <TableCell sx={{ fontFamily: 'monospace' }}>{plan.code}</TableCell>
                    <TableCell align="right">{plan.tier}</TableCell>
                    {withProductIds && <TableCell align="right">{plan.product_id ?? '—'}</TableCell>}
                    <TableCell>{plan.externalReference ?? '—'}</TableCell>
                    {canChange && (
                      <TableCell align="right">
                        <IconButton
                          aria-label={translate('app.plans.remove_named', { name: plan.name })}
                          onClick={() => setRemoving(plan)}
                          size="small"
                        >
                          <DeleteIcon fontSize="small" />
                        </IconButton>
                      </TableCell>
                    )}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        )}
        {canChange && <AddPlan place={place} />}
      </CardContent>
      <SafeConfirm
        isOpen={removing !== null}
        title={translate('app.plans.remove_title', { name: removing?.name ?? '' })}
        content={translate('app.plans.remove_warning', { code: removing?.code ?? '' })}
        confirm={translate('ra.action.remove')}
        onConfirm={remove}
        onClose={() => setRemoving(null)}
      />
    </Card>
  );
};
