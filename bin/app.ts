import { createApp } from '../infra/create-app';

createApp().app.synth();
