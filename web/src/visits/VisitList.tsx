import { AutocompleteInput, DateInput, ReferenceInput, TopToolbar } from 'react-admin';
import { ExportButton } from '../common/ExportButton';
import { EmptyState } from '../common/EmptyState';
import { ScreenList } from '../common/ScreenList';
import { VisitTable } from './VisitTable';

const filters = [
  <ReferenceInput key="place" source="place_id" reference="places" alwaysOn>
    <AutocompleteInput
      label="app.checkins.place"
      optionText="name"
      filterToQuery={(q) => ({ q })}
      sx={{ minWidth: 240 }}
    />
  </ReferenceInput>,
  <DateInput key="from" source="from" label="app.checkins.from" alwaysOn />,
  <DateInput key="to" source="to" label="app.checkins.to" alwaysOn />,
];

/** Check-ins (visits) of every place, newest first. */
export const VisitList = () => (
  <ScreenList
    filters={filters}
    actions={
      <TopToolbar>
        <ExportButton />
      </TopToolbar>
    }
    empty={<EmptyState title="app.checkins.none" hint="app.checkins.none_hint" />}
    perPage={50}
  >
    <VisitTable />
  </ScreenList>
);
