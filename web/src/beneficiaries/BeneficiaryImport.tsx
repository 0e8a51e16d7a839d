import UploadFileIcon from '@mui/icons-material/UploadFile';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  LinearProgress,
  List,
  ListItem,
  ListItemText,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useRef, useState, type ChangeEvent } from 'react';
import { Title, useDataProvider, useNotify, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { formatCpf } from '../common/format';
import { useSmall } from '../common/useSmall';
import type { ConsoleDataProvider } from '../dataProvider';
import { parseBeneficiaryCsv, type ParsedCsv } from './csv';
import { handler } from '../common/handler';

/** The service takes up to 10,000 rows a request; bigger files go in several. */
const CHUNK = 10_000;

interface Refusal {
  line: number;
  cpf: string;
  name: string;
  reason: string;
}

interface Outcome {
  created: number;
  updated: number;
  refused: Refusal[];
}

const TEMPLATE =
  'cpf,name,email,phone,birthday,benefit_plan_code,active,code\n' +
  '111.444.777-35,Joana Lima,joana@example.com,+5511988887777,1991-02-03,GOLD,true,\n';

/** CSV import of beneficiaries: every refused row is listed with its line and the service's reason. */
export const BeneficiaryImport = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const small = useSmall();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const input = useRef<HTMLInputElement>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const [parsed, setParsed] = useState<ParsedCsv | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setOutcome(null);
    if (!file) return;
    setFileName(file.name);
    setParsed(parseBeneficiaryCsv(await file.text()));
  };

  const run = async () => {
    if (!parsed) return;
    setBusy(true);
    const result: Outcome = { created: 0, updated: 0, refused: [] };
    try {
      for (let start = 0; start < parsed.rows.length; start += CHUNK) {
        const rows = parsed.rows.slice(start, start + CHUNK);
        const answer = await dataProvider.importBeneficiaries(rows.map((row) => row.body));
        result.created += answer.created;
        result.updated += answer.updated;
        for (const error of answer.errors) {
          const row = rows[error.index];
          result.refused.push({
            line: row?.line ?? start + error.index + 2,
            cpf: String(row?.body.cpf ?? ''),
            name: String(row?.body.name ?? ''),
            reason: error.message,
          });
        }
      }
      setOutcome(result);
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
      if (result.created || result.updated || result.refused.length) setOutcome(result);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 1000 }}>
      <Title title="app.beneficiaries.import_title" />
      <Card>
        <CardContent>
          <Typography variant="h5" component="h2" gutterBottom>
            {translate('app.beneficiaries.import_title')}
          </Typography>
          <Typography variant="body2" sx={{ mb: 1 }}>
            {translate('app.beneficiaries.import_intro')}
          </Typography>
          <Typography
            variant="body2"
            component="p"
            sx={{
              fontFamily: 'monospace',
              bgcolor: 'action.hover',
              p: 1,
              borderRadius: 1,
              overflowWrap: 'anywhere',
            }}
          >
            cpf, name, email, phone, birthday, benefit_plan_code, active, code
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {translate('app.beneficiaries.import_columns_help')}
          </Typography>
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={1.5}
            sx={{ mt: 2, alignItems: { sm: 'center' } }}
          >
            <Button variant="outlined" component="label" startIcon={<UploadFileIcon />}>
              {translate('app.beneficiaries.choose_file')}
              <input ref={input} type="file" accept=".csv,text/csv" hidden onChange={handler(choose)} />
            </Button>
            <Button
              component="a"
              href={`data:text/csv;charset=utf-8,${encodeURIComponent(TEMPLATE)}`}
              download="beneficiarios-modelo.csv"
            >
              {translate('app.beneficiaries.download_template')}
            </Button>
            <Box sx={{ flex: 1 }} />
            <Button component={Link} to="/beneficiaries">
              {translate('app.action.back_to_list')}
            </Button>
          </Stack>

          {parsed && (
            <Box sx={{ mt: 3 }}>
              <Typography variant="body1">
                {translate('app.beneficiaries.rows_read', {
                  smart_count: parsed.rows.length,
                  file: fileName ?? '',
                })}
              </Typography>
              {parsed.missingColumns.length > 0 && (
                <Alert severity="error" sx={{ mt: 1 }}>
                  {translate('app.beneficiaries.missing_columns', {
                    columns: parsed.missingColumns.join(', '),
                  })}
                </Alert>
              )}
              {parsed.unknownColumns.length > 0 && (
                <Alert severity="info" sx={{ mt: 1 }}>
                  {translate('app.beneficiaries.unknown_columns', {
                    columns: parsed.unknownColumns.join(', '),
                  })}
                </Alert>
              )}
              <Button
                variant="contained"
                sx={{ mt: 2 }}
                onClick={handler(run)}
                disabled={busy || parsed.rows.length === 0 || parsed.missingColumns.length > 0}
              >
                {translate('app.beneficiaries.import_run', { smart_count: parsed.rows.length })}
              </Button>
              {busy && <LinearProgress sx={{ mt: 2 }} aria-label={translate('ra.page.loading')} />}
            </Box>
          )}
        </CardContent>
      </Card>

      {outcome && (
        <Card sx={{ mt: 2 }} component="section" aria-label={translate('app.beneficiaries.import_result')}>
          <CardContent>
            <Typography variant="h6" component="h3">
              {translate('app.beneficiaries.import_result')}
            </Typography>
            <Alert severity={outcome.refused.length ? 'warning' : 'success'} sx={{ my: 1 }} role="status">
              {translate('app.beneficiaries.import_summary', {
                created: outcome.created,
                updated: outcome.updated,
                refused: outcome.refused.length,
              })}
            </Alert>
            {outcome.refused.length > 0 && small && (
              <List dense aria-label={translate('app.beneficiaries.refused_rows')}>
                {outcome.refused.map((refusal) => (
                  <ListItem key={refusal.line} divider>
                    <ListItemText
                      primary={`${translate('app.beneficiaries.line')} ${refusal.line} · ${formatCpf(refusal.cpf)} ${refusal.name}`}
                      secondary={refusal.reason}
                    />
                  </ListItem>
                ))}
              </List>
            )}
            {outcome.refused.length > 0 && !small && (
              <Box sx={{ overflowX: 'auto' }}>
                <Table size="small" aria-label={translate('app.beneficiaries.refused_rows')}>
                  <TableHead>
                    <TableRow>
                      <TableCell>{translate('app.beneficiaries.line')}</TableCell>
                      <TableCell>{translate('app.beneficiaries.cpf')}</TableCell>
                      <TableCell>{translate('app.beneficiaries.name')}</TableCell>
                      <TableCell>{translate('app.beneficiaries.reason')}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {outcome.refused.map((refusal) => (
                      <TableRow key={refusal.line}>
                        <TableCell>{refusal.line}</TableCell>
                        <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
                          {formatCpf(refusal.cpf)}
                        </TableCell>
                        <TableCell>{refusal.name}</TableCell>
                        <TableCell>{refusal.reason}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </Box>
            )}
          </CardContent>
        </Card>
      )}
    </Box>
  );
};
