import {
  AutocompleteInput,
  BooleanInput,
  ReferenceInput,
  SelectInput,
  TopToolbar,
  useCanAccess,
} from 'react-admin';
import { ExportButton } from '../common/ExportButton';
import { ScreenList } from '../common/ScreenList';
import { DeliveryTable } from './DeliveryTable';

const STATUSES = ['failed', 'pending', 'queued', 'delivered'].map((id) => ({
  id,
  name: `app.delivery.status.${id}`,
}));

/** Deliveries of every place the person may see: failed first, then newest; `failing` keeps the troubled ones. */
export const DeliveryList = () => {
  const { canAccess: allPlaces } = useCanAccess({ resource: 'partners', action: 'list' });
  const filters = [
    <BooleanInput
      key="failing"
      source="failing"
      label="app.delivery.failing_only"
      alwaysOn
      helperText={false}
    />,
    <SelectInput
      key="status"
      source="status"
      label="app.delivery.status_label"
      choices={STATUSES}
      alwaysOn
      sx={{ minWidth: 180 }}
    />,
    <ReferenceInput key="place" source="place_id" reference="places" alwaysOn>
      <AutocompleteInput
        label="app.delivery.place"
        optionText="name"
        filterToQuery={(q) => ({ q })}
        sx={{ minWidth: allPlaces ? 240 : 200 }}
      />
    </ReferenceInput>,
  ];
  return (
    <ScreenList
      filters={filters}
      actions={
        <TopToolbar>
          <ExportButton />
        </TopToolbar>
      }
      perPage={25}
    >
      <DeliveryTable />
    </ScreenList>
  );
};
