import HandshakeIcon from '@mui/icons-material/Handshake';
import { PartnerCreate } from './PartnerCreate';
import { PartnerList } from './PartnerList';
import { PartnerShow } from './PartnerShow';

export default {
  list: PartnerList,
  show: PartnerShow,
  create: PartnerCreate,
  icon: HandshakeIcon,
  recordRepresentation: 'name',
};
