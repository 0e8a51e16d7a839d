import HowToRegIcon from '@mui/icons-material/HowToReg';
import { VisitList } from './VisitList';

export default {
  list: VisitList,
  icon: HowToRegIcon,
};
