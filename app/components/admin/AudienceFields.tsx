import { SelectField } from "~/components/admin/fields";
import { POST_AUDIENCE_CHOICES, type PostAudience } from "~/blog/post-audience";

/**
 * Who can read the post. The plans are always shown (the form works without JavaScript); they count
 * only when "Members of the plans ticked below" is chosen.
 */
export function AudienceFields({
  audience,
  audienceTiers,
  tiers,
  errors,
}: {
  audience: string;
  audienceTiers: string[];
  tiers: { slug: string; name: string }[];
  errors?: Record<string, string>;
}) {
  const tierError = errors?.audienceTiers;
  return (
    <div className="space-y-3">
      <SelectField
        label="Who can read it"
        name="audience"
        defaultValue={audience as PostAudience}
        options={POST_AUDIENCE_CHOICES}
        error={errors?.audience}
        hint="Everyone sees a members' post on the blog with its excerpt and a lock; only those members read the text."
      />
      <fieldset aria-describedby={tierError ? "audience-tiers-error" : undefined}>
        <legend className="font-semibold">Plans that can read it</legend>
        <div className="mt-1 grid gap-x-4 sm:grid-cols-2">
          {tiers.map((tier) => (
            <label key={tier.slug} className="flex min-h-11 items-center gap-3">
              <input
                type="checkbox"
                name="audienceTiers"
                value={tier.slug}
                defaultChecked={audienceTiers.includes(tier.slug)}
                className="h-5 w-5 shrink-0 accent-ink"
              />
              <span className="min-w-0 break-words">{tier.name}</span>
            </label>
          ))}
        </div>
        {tierError ? (
          <p id="audience-tiers-error" className="mt-1 text-sm font-semibold text-red-800">
            {tierError}
          </p>
        ) : null}
      </fieldset>
    </div>
  );
}
