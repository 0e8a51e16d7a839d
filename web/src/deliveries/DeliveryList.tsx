import { AutocompleteInput, ReferenceInput, SelectInput, useCanAccess } from 'react-admin';
import { ScreenList } from '../common/ScreenList';
import { DeliveryTable } from './DeliveryTable';

const STATUSES = ['failed', 'pending', 'queued', 'delivered'].map((id) => ({
  id,
  name: `app.delivery.status.${id}`,
}));

/** Deliveries of every place the person may see: failed first, then newest. */
export const DeliveryList = () => {
  const { canAccess: allPlaces } = useCanAccess({ resource: 'partners', action: 'list' });
  const filters = [
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
    <ScreenList filters={filters} actions={false} perPage={25}>
      <DeliveryTable />
    </ScreenList>
  );
};
