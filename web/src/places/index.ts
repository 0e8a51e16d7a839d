import StoreIcon from '@mui/icons-material/Store';
import { PlaceCreate } from './PlaceCreate';
import { PlaceEdit } from './PlaceEdit';
import { PlaceList } from './PlaceList';
import { PlaceShow } from './PlaceShow';

export default {
  list: PlaceList,
  show: PlaceShow,
  create: PlaceCreate,
  edit: PlaceEdit,
  icon: StoreIcon,
  recordRepresentation: 'name',
};
