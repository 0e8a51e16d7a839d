/**
 * Examples of the Wellhub-compatible routes that work on the demo (`npm run demo`), in the document's order:
 * its gym Demo Fitness Pinheiros has gym_id 100002 and its plan Completo product_id 100003; Isabela Santos
 * (DEMO0027, Gold, in no other example) has member number 7182264798426, the 27th drawn on a fresh database.
 */
export const DEMO_GYM_ID = 100002;
export const DEMO_MEMBER_NUMBER = '7182264798426';

export const VALIDATE_EXAMPLES = {
  validate: {
    summary: "Validate the member's check-in → 200",
    description: "After the member's check-in at the gym (the sandbox helper's example above makes one).",
    value: { gympass_id: DEMO_MEMBER_NUMBER },
  },
  withCustomCode: {
    summary: "The same again, with the gym system's own code → 400 check_in_not_available",
    description:
      '`checkin.already.validated`: the same check-in, no second visit; the custom code is stored.',
    value: { gympass_id: DEMO_MEMBER_NUMBER, custom_code: 'RFID-00417' },
  },
};

export const ACCESS_ERROR_EXAMPLES = {
  validate400: {
    alreadyValidated: {
      summary: 'A repeat: the same check-in, validated already (read it as success)',
      value: {
        metadata: { total: 0, errors: 1 },
        errors: [
          {
            message: 'This check-in was already confirmed at 2026-11-22 07:02.',
            key: 'checkin.already.validated',
            label: 'check_in_not_available',
          },
        ],
      },
    },
    denied: {
      summary: 'A rule refuses at validation time',
      value: {
        metadata: { total: 0, errors: 1 },
        errors: [
          {
            message: "The benefit plan's monthly visit limit is reached.",
            key: 'checkin.validation.denied',
            label: 'usage_limit_reached',
          },
        ],
      },
    },
  },
  notFound: {
    notFound: {
      summary: 'No check-in of that member at this gym today',
      value: {
        metadata: { total: 0, errors: 1 },
        errors: [
          {
            message: 'Member 1005562313198 has no check-in at this gym to validate today.',
            key: 'checkin.validation.notfound',
            label: 'not_exists',
          },
        ],
      },
    },
  },
};

export const WEBHOOKS_EXAMPLES = {
  subscribe: {
    summary: 'Subscribe the checkin event → 204',
    value: {
      webhooks: [
        {
          event: 'checkin',
          url: 'https://erp.example.com/wellhub/checkin',
          secret: 's3cr3t-shared-with-the-gym-system',
          additional_data: true,
        },
      ],
    },
  },
};

export const SIMULATE_EXAMPLES = {
  simulate: {
    summary: "A member's check-in at the demo's Pinheiros gym → 201",
    value: { gympass_user_id: DEMO_MEMBER_NUMBER },
  },
};

export const WELLHUB_EVENT_EXAMPLE = {
  event_type: 'checkin',
  event_data: {
    user: { unique_token: DEMO_MEMBER_NUMBER, first_name: 'Isabela', last_name: 'Santos' },
    gym: {
      id: DEMO_GYM_ID,
      title: 'Demo Fitness Pinheiros',
      product: { id: 100003, description: 'Completo' },
    },
    timestamp: 1795860131,
    expires_at: 1795865531,
  },
};
