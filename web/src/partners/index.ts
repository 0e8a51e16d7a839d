import HandshakeIcon from '@mui/icons-material/Handshake';
import { PartnerCreate } from './PartnerCreate';
import { PartnerEdit } from './PartnerEdit';
import { PartnerList } from './PartnerList';
import { PartnerShow } from './PartnerShow';

export default {
  list: PartnerList,
  show: PartnerShow,
  create: PartnerCreate,
  edit: PartnerEdit,
  icon: HandshakeIcon,
  recordRepresentation: 'name',
};
