import { createRoot } from 'react-dom/client';
import { ItemList } from './ItemList';

createRoot(document.getElementById('root')!).render(<ItemList />);
