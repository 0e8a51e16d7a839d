import SendIcon from '@mui/icons-material/Send';
import { DeliveryList } from './DeliveryList';
import { DeliveryShow } from './DeliveryShow';

export default {
  list: DeliveryList,
  show: DeliveryShow,
  icon: SendIcon,
};
